import CGtk
import PhotoCore

/// What tagging needs of the window it is in: the photos to mark, the grid or viewer shown,
/// and writing a change of marks.
@MainActor
protocol PhotosToTag: AnyObject {
    /// The photos a mark goes on: the selection in edit mode, the photo shown, the focused one.
    var photosToMark: [Photo] { get }
    /// The open folder's grid, nil while no folder is open.
    var openGrid: ThumbnailGrid? { get }
    /// The viewer, while it is the page shown.
    var shownViewer: PhotoViewer? { get }
    /// Writes `change` on the photos at `uris`, as every mark is written.
    func changeMarks(_ change: MarksChange, on uris: [String]?)
}

/// Tags from the keyboard and the menus (Ctrl+T, Tags…): the window's `TagsPopover` on the
/// focused tile, or under the window's title (`TagEditing.place`), for the photos to mark;
/// what it asks for is written as every mark is (`changeMarks`: the sidecars merged on a
/// worker, a toast with Undo, `trace tagged`).
@MainActor
final class PhotoTagging {
    private let popover: TagsPopover
    /// The window's title: what the popover points at in the viewer.
    private let title: Widget
    private weak var photos: (any PhotosToTag)?

    init(popover: TagsPopover, title: Widget, photos: any PhotosToTag) {
        self.popover = popover
        self.title = title
        self.photos = photos
    }

    func start() {
        guard let photos, let grid = photos.openGrid else { return }
        let uris = photos.photosToMark.map(\.id)
        guard !uris.isEmpty else { return }
        let shared = ShownMarks.shared
        for uri in uris { shared.request(uri) }
        let used = TagEditing.uses(in: shared.known.values)
        popover.onApply = { [weak self] change in
            guard let change else { return }
            self?.photos?.changeMarks(change, on: uris)
        }
        popover.onClosed = { [weak self] in
            guard let photos = self?.photos, let grid = photos.openGrid else { return }
            if let viewer = photos.shownViewer { viewer.focus() } else if let first = uris.first { grid.focusTile(showing: first) }
        }
        let photosTags = uris.map { shared.marks(of: $0)?.tags ?? [] }
        let place = TagEditing.place(for: uris, inViewer: photos.shownViewer != nil, focused: grid.focusedTile?.photo?.id) {
            grid.tileRect(showing: $0) != nil
        }
        if case .tile(let uri) = place, let rect = grid.tileRect(showing: uri) {
            popover.show(photosTags: photosTags, used: used, pointingTo: rect, in: grid.menuAnchor)
        } else {
            let rect = GdkRectangle(x: 0, y: 0, width: gtk_widget_get_width(title), height: gtk_widget_get_height(title))
            popover.show(photosTags: photosTags, used: used, pointingTo: rect, in: title)
        }
    }
}
