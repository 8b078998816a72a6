import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// The welcome page's folders opened before (`RecentFolders`): an AdwPreferencesGroup of rows,
/// newest first, each with the folder's name and where it is, which opens it when clicked
/// (or activated with the keyboard).
@MainActor
final class RecentFoldersList {
    let root: Widget
    private let group: Widget
    private var rows: [Widget] = []
    /// A row was activated: open the folder at this URI.
    var onOpen: (String) -> Void = { _ in }

    init() {
        group = adw_preferences_group_new()
        adw_preferences_group_set_title(group.cast(), tr("Recent Folders"))
        root = adw_clamp_new()
        adw_clamp_set_maximum_size(root.cast(), 480)
        adw_clamp_set_child(root.cast(), group)
        gtk_widget_set_margin_top(root, 36)
        gtk_widget_set_visible(root, 0)
    }

    /// Lists `folders`; none hides the list.
    func show(_ folders: [RecentFolder]) {
        for row in rows { adw_preferences_group_remove(group.cast(), row) }
        rows = folders.map(row(for:))
        for row in rows { adw_preferences_group_add(group.cast(), row) }
        gtk_widget_set_visible(root, folders.isEmpty ? 0 : 1)
    }

    private func row(for folder: RecentFolder) -> Widget {
        let row = adw_action_row_new()!
        let place = Self.place(of: folder.uri)
        // Names are shown as they are, never read as markup.
        adw_preferences_row_set_use_markup(row.cast(), 0)
        Texts.setTitle(row: row, ShownText(OutsideText(folder.name.isEmpty ? place : folder.name)))
        Texts.setSubtitle(actionRow: row, ShownText(OutsideText(place)))
        adw_action_row_add_prefix(row.cast(), gtk_image_new_from_icon_name(folder.isLocal ? "folder-symbolic" : "folder-remote-symbolic"))
        adw_action_row_add_suffix(row.cast(), gtk_image_new_from_icon_name("go-next-symbolic"))
        gtk_list_box_row_set_activatable(row.cast(), 1)
        Texts.setTooltip(row, ShownText(tr("Open “%s”", OutsideText(place))))
        let uri = folder.uri
        onSignal(row, "activated") { [weak self] in self?.onOpen(uri) }
        return row
    }

    /// Where the folder is, as a person writes it: a path (`~` for the home folder), or the
    /// address of a folder on another machine.
    static func place(of uri: String) -> String {
        let name = parseName(ofURI: uri)
        let home = NSHomeDirectory()
        if name == home { return "~" }
        return name.hasPrefix(home + "/") ? "~" + name.dropFirst(home.count) : name
    }
}
