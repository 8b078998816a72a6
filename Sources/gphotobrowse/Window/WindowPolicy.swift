import CGtk
import PhotoCore
import PhotoIO

/// The one place where a window's actions are enabled or disabled and its state-dependent
/// buttons shown: PhotoCore's `ActionPolicy` applied to what the window shows now.
///
/// Whatever may change the answer (a page shown, an album, edit mode or the selection, a
/// menu opened or closed, a rotation, an export, the photos listed) calls `applyPolicy`;
/// nothing else sets an action's enabled state.
extension BrowserWindow {
    /// What the window shows and does now, as the policy reads it.
    var policyState: BrowserState {
        var state = BrowserState()
        if let picking { state.picking = picking.options.multiple ? .several : .one }
        guard let folder else { return state }
        state.page = isViewerShown ? .viewer : isGridShown ? .grid : .status
        if case .collection = folder.page.album { state.album = shownCollection == nil ? .folder : .yours } else { state.album = .folder }
        state.hasPhotos = folder.contents.photos.count > 0
        state.editing = folder.edit.isEditing
        state.jobRunning = folder.edit.isExporting
        state.rotationPending = state.page == .viewer && folder.viewer.shownRotation != 0
        state.showsMovie = state.page == .viewer && folder.viewer.showsMovie
        let photos = photosToActOn
        state.actsOn = photos.isEmpty ? .none : photos.count == 1 ? .one : .several
        if !photos.isEmpty, photos.allSatisfy(\.isNotFound) { state.kind = .notFound }
        let uris = photos.isEmpty ? [folder.source.uri] : photos.map(\.id)
        if folder.source.isWeb || uris.contains(where: WebPhotoFiles.isWebAddress) {
            state.place = .web
        } else if uris.contains(where: RemoteFileCopies.isRemote) {
            state.place = .remote
        }
        return state
    }

    /// Enables the actions the policy allows now, disables the others, and shows the buttons
    /// it shows.
    func applyPolicy() {
        let state = policyState
        let offer = ActionPolicy.browser(state)
        ActionSwitches.set(BrowserAction.allCases.map { ($0.name, offer.enabled.contains($0)) }, in: window)
        if let viewer = folder?.viewer {
            let viewing = ActionPolicy.viewer(state)
            ActionSwitches.set(ViewerAction.allCases.map { ($0.rawValue, viewing.contains($0)) }, in: viewer.actionGroup.pointer)
        }
        header.offer(offer.shown)
        editBar.show(offer.shown.contains(.editBar))
        editBar.showRemoveFromAlbum(offer.shown.contains(.removeFromAlbum))
        if let viewer = folder?.viewer {
            viewer.chrome.toolbar.showSaveRotation(offer.shown.contains(.saveRotation))
            viewer.chrome.toolbar.showSelectedCheck(offer.shown.contains(.selectedCheck))
        }
    }
}

extension BoardWindow {
    /// The board's actions and header buttons for what the window shows: nothing but on
    /// the board itself (not while the photo opens, nor on the page saying it could not).
    func applyPolicy(_ state: BoardState, buttons: [BoardButton: Widget]) {
        let offer = ActionPolicy.board(state)
        ActionSwitches.set(BoardAction.allCases.map { ($0.name, offer.enabled.contains($0)) }, in: window)
        for (button, widget) in buttons { gtk_widget_set_visible(widget, offer.shown.contains(button) ? 1 : 0) }
    }
}

/// Sets actions of a window's action map enabled or not: used by the policies above only.
@MainActor
private enum ActionSwitches {
    static func set(_ switches: [(name: String, enabled: Bool)], in map: some GObjectPointer) {
        for (name, enabled) in switches {
            guard let action = g_action_map_lookup_action(map.cast(), name) else { continue }
            // Setting the same state again notifies nothing.
            g_simple_action_set_enabled(action.cast(), enabled ? 1 : 0)
        }
    }
}
