import CGtk
import PhotoCore

/// Tags from the keyboard and the menus (Ctrl+T, Tags…): the window's `TagsPopover` on the
/// focused tile, or over the viewer's title, for the photos to mark (the selection in edit
/// mode, the photo shown, the focused one); what it asks for is written as every mark is
/// (`changeMarks`: the sidecars merged on a worker, a toast with Undo, `trace tagged`).
extension BrowserWindow {
    func installTagAction() {
        addAction(window, "tag") { [weak self] in self?.startTagging() }
    }

    func startTagging() {
        guard let folder else { return }
        let photos = photosToMark
        guard !photos.isEmpty else { return }
        let uris = photos.map(\.id)
        let shared = ShownMarks.shared
        for uri in uris { shared.request(uri) }
        var used: [String: Int] = [:]
        for marks in shared.known.values {
            for tag in marks.tags { used[tag, default: 0] += 1 }
        }
        tagsPopover.onApply = { [weak self] change in
            guard let change else { return }
            self?.changeMarks(change, on: uris)
        }
        tagsPopover.onClosed = { [weak self] in
            guard let self, let folder = self.folder else { return }
            if self.isViewerShown { folder.viewer.focus() } else if let first = uris.first { folder.grid.focusTile(showing: first) }
        }
        let photosTags = uris.map { shared.marks(of: $0)?.tags ?? [] }
        if isViewerShown {
            let anchor = title.root
            let rect = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(anchor), height: gtk_widget_get_height(anchor))
            tagsPopover.show(photosTags: photosTags, used: used, pointingTo: rect, in: anchor)
        } else if let focused = folder.grid.focusedTile?.photo?.id, uris.contains(focused),
                  let rect = folder.grid.tileRect(showing: focused) {
            tagsPopover.show(photosTags: photosTags, used: used, pointingTo: rect, in: folder.grid.menuAnchor)
        } else if let rect = uris.lazy.compactMap({ folder.grid.tileRect(showing: $0) }).first {
            tagsPopover.show(photosTags: photosTags, used: used, pointingTo: rect, in: folder.grid.menuAnchor)
        } else {
            let anchor = title.root
            let rect = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(anchor), height: gtk_widget_get_height(anchor))
            tagsPopover.show(photosTags: photosTags, used: used, pointingTo: rect, in: anchor)
        }
    }
}
