import CGtk
import PhotoCore

/// The window's header bar (AdwHeaderBar): Back and Open on the left, the title, and on the
/// right the main menu, the sort menu and Select. Which buttons show is the window's
/// `ActionPolicy`'s answer (`offer`); the viewer's Properties is its toolbar's.
@MainActor
final class WindowHeader {
    enum Page { case status, grid, viewer }

    let root: Widget
    let title: WindowTitle
    let sortMenu: SortMenu
    /// The album switcher, in the title's place when the folder has albums to switch between.
    let albums = AlbumSwitcher()
    /// The searchable list of albums, beside Open.
    let albumList = AlbumChooser()
    private var hasAlbums = false
    private var page = Page.status
    /// The two title widgets take turns in the header bar, which lets go of the one it
    /// takes out: the header holds both.
    private let titleWidgets: [OwnedObject<Widget>]
    private let backButton: Widget
    private let selectButton: Widget
    private let menuButton: Widget
    /// Cancel and Choose, when the window chooses photos for `--pick`.
    private var picking: (cancel: Widget, choose: Widget, multiple: Bool)?

    init(window: UnsafeMutablePointer<GtkWindow>, order: PhotoOrder) {
        root = adw_header_bar_new()
        backButton = Self.button(icon: "go-previous-symbolic", tooltip: tr("Back to the Folder"), action: "win.back")
        adw_header_bar_pack_start(root.cast(), backButton)
        adw_header_bar_pack_start(root.cast(), Self.button(icon: "folder-open-symbolic", tooltip: tr("Open Folder… (Ctrl+O)"), action: "win.open"))
        adw_header_bar_pack_start(root.cast(), albumList.button)
        title = WindowTitle(window: window)
        adw_header_bar_set_title_widget(root.cast(), title.root)
        titleWidgets = [OwnedObject(sharing: title.root), OwnedObject(sharing: albums.root)]

        let mainMenu = g_menu_new()!
        // The album shown, when it is one of the person's own (the actions are enabled then).
        let album = g_menu_new()!
        for (label, action) in [(tr("Rename Album…"), "win.rename-album"), (tr("Delete Album"), "win.delete-album")] {
            let item = g_menu_item_new(label, action)!
            g_menu_item_set_attribute_value(item, "hidden-when", g_variant_new_string("action-disabled"))
            g_menu_append_item(album, item)
            item.unref()
        }
        g_menu_append_section(mainMenu, nil, album.cast())
        album.unref()
        let open = g_menu_new()!
        g_menu_append(open, tr("Open Location…"), "win.open-location")
        g_menu_append_section(mainMenu, nil, open.cast())
        open.unref()
        let app = g_menu_new()!
        g_menu_append(app, tr("Preferences"), "app.preferences")
        g_menu_append(app, tr("Keyboard Shortcuts"), "app.shortcuts")
        g_menu_append(app, tr("About Photo Browser"), "app.about")
        g_menu_append_section(mainMenu, nil, app.cast())
        app.unref()
        menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(menuButton.cast(), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(menuButton.cast(), mainMenu.cast())
        Accessible.name(menuButton, tooltip: tr("Main Menu"))
        gtk_menu_button_set_primary(menuButton.cast(), 1)
        mainMenu.unref()
        adw_header_bar_pack_end(root.cast(), menuButton)
        sortMenu = SortMenu(window: window, order: order)
        adw_header_bar_pack_end(root.cast(), sortMenu.button)
        selectButton = gtk_toggle_button_new()
        gtk_button_set_icon_name(selectButton.cast(), "selection-mode-symbolic")
        Accessible.name(selectButton, tooltip: tr("Select Photos"))
        gtk_actionable_set_action_name(selectButton.cast(), "win.edit")
        adw_header_bar_pack_end(root.cast(), selectButton)
        show(.status)
        offer([])
    }

    private static func button(icon: String, tooltip: String, action: String) -> Widget {
        let button = gtk_button_new_from_icon_name(icon)!
        Accessible.name(button, tooltip: tooltip)
        gtk_actionable_set_action_name(button.cast(), action)
        return button
    }

    /// Shows the album switcher in the title's place on the grid of a folder with albums.
    func show(_ page: Page) {
        self.page = page
        let switching = hasAlbums && page == .grid
        adw_header_bar_set_title_widget(root.cast(), switching ? albums.root : title.root)
        gtk_widget_set_visible(albumList.button, switching ? 1 : 0)
    }

    /// Shows the buttons the window's policy shows (`WindowPolicy.swift`).
    func offer(_ shown: Set<BrowserButton>) {
        gtk_widget_set_visible(backButton, shown.contains(.back) ? 1 : 0)
        gtk_widget_set_visible(sortMenu.button, shown.contains(.sort) ? 1 : 0)
        gtk_widget_set_visible(selectButton, shown.contains(.select) ? 1 : 0)
        if let picking { gtk_widget_set_visible(picking.choose, shown.contains(.choose) ? 1 : 0) }
    }

    /// Lists the folder's albums (and the person's own), `current` selected; with fewer than
    /// two to switch between, the title shows instead, as for a folder without subfolders.
    func showAlbums(_ folderAlbums: [AlbumSummary], collections: [AlbumSummary], current: AlbumID?) {
        hasAlbums = folderAlbums.count + collections.count > 1
        albums.show(folderAlbums, collections: collections, current: current)
        albumList.show(folderAlbums + collections)
        show(page)
    }

    /// Cancel at the start and Choose, the suggested action, at the end: the window chooses
    /// photos for the program that asked (`--pick`).
    func showPicking(multiple: Bool) {
        // No access keys on a header bar's buttons (Escape and Enter are theirs): a translation's
        // key in parentheses would show ("取消(C)").
        let cancel = gtk_button_new_with_label(AccessKey.removed(from: tr("_Cancel")))!
        gtk_actionable_set_action_name(cancel.cast(), "win.pick-cancel")
        adw_header_bar_pack_start(root.cast(), cancel)
        gtk_widget_insert_after(cancel, gtk_widget_get_parent(backButton), nil)
        let choose = gtk_button_new_with_label(AccessKey.removed(from: tr("C_hoose")))!
        gtk_widget_add_css_class(choose, "suggested-action")
        gtk_actionable_set_action_name(choose.cast(), "win.pick-choose")
        adw_header_bar_pack_end(root.cast(), choose)
        // The rightmost before the window's buttons, where a file chooser has its Open.
        if let box = gtk_widget_get_parent(choose), gtk_widget_get_parent(menuButton) == box {
            gtk_widget_insert_after(choose, box, menuButton)
        }
        picking = (cancel, choose, multiple)
        showChosen(0)
        show(page)
    }

    /// The Choose button says how many photos it chooses (`--pick --multiple`).
    func showChosen(_ count: Int) {
        guard let picking, picking.multiple else { return }
        let label = count == 0 ? tr("C_hoose") : trn("C_hoose %d Photo", "C_hoose %d Photos", count, count)
        Texts.setLabel(button: picking.choose, ShownText(AccessKey.removed(from: label)))
    }

    /// The Select toggle follows edit mode.
    func showEditing(_ editing: Bool) {
        gtk_toggle_button_set_active(selectButton.cast(), editing ? 1 : 0)
    }
}
