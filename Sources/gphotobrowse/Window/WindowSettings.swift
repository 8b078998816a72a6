import CGtk
import PhotoCore

/// A window and the settings (`Preferences`): it opens at the size the last window closed
/// had, saves its own when it goes, follows the sort order and tile size wherever they are
/// changed, and steps the tile size (Ctrl+plus, Ctrl+minus, Ctrl+scroll in the grid).
extension BrowserWindow {
    func installSettings() {
        let state = Preferences.shared.settings.window
        gtk_window_set_default_size(window, Int32(state.width), Int32(state.height))
        if state.maximized { gtk_window_maximize(window) }
        windowState = state
        // GTK keeps the default size equal to the window's size while it is not maximized
        // or fullscreen: what to open the next window at.
        for property in ["default-width", "default-height", "maximized"] {
            onSignal(window, "notify::" + property, pointer: { [weak self] _ in self?.noteWindowState() })
        }
        addAction(window, "larger-tiles") { [weak self] in self?.stepTileSize(by: 1) }
        addAction(window, "smaller-tiles") { [weak self] in self?.stepTileSize(by: -1) }
        settingsObserver = Preferences.shared.observe { [weak self] old, new in self?.settingsChanged(old, new) }
    }

    private func noteWindowState() {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(window, &width, &height)
        guard width > 0, height > 0 else { return }
        windowState = WindowState(width: Int(width), height: Int(height), maximized: gtk_window_is_maximized(window) != 0)
    }

    /// The window is going: the next one opens at its size, and it follows no more changes.
    func saveSettings() {
        settingsObserver = nil
        if let windowState { Preferences.shared.update { $0.window = windowState } }
    }

    /// Tiles `count` steps larger (or smaller), in the grid; remembered, and every window follows.
    func stepTileSize(by count: Int) {
        guard isGridShown else { return }
        Preferences.shared.update { $0.tileSize = $0.tileSize.stepped(by: count) }
    }

    private func settingsChanged(_ old: BrowserSettings, _ new: BrowserSettings) {
        if new.tileSize != old.tileSize, let folder, folder.setTileSize(new.tileSize) {
            header.albums.covers.thumbnails = folder.loader
            header.albumList.covers.thumbnails = folder.loader
        }
        // A picker's order is its own.
        if new.order != old.order, picking == nil {
            header.sortMenu.show(new.order)
            if let folder, folder.contents.photos.order != new.order { folder.contents.sort(by: new.order) }
        }
    }
}
