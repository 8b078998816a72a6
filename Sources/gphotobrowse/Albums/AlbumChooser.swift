import CGtk
import Foundation
import PhotoCore

/// The searchable list of albums: a header bar button whose popover lists every album
/// (folder albums, then the person's own), filtered as the person types. For folders of
/// hundreds of albums, where the switcher's row is too long to scroll through.
@MainActor
final class AlbumChooser {
    private let live = LiveObjects.Token("AlbumChooser")
    let button: Widget
    private let popover: Widget
    private let search: Widget
    private let keys: OpaquePointer  // GtkStringList
    private let filter: OpaquePointer  // GtkCustomFilter
    private let listView: OpaquePointer
    private var summaries: [String: AlbumSummary] = [:]
    private var query = ""

    /// The rows' covers.
    let covers = AlbumCovers()

    /// The person chose an album.
    var onSelect: (AlbumID) -> Void = { _ in }

    init() {
        keys = gtk_string_list_new(nil)
        let factory = gtk_signal_list_item_factory_new()!
        search = gtk_search_entry_new()
        Texts.setTooltip(search, ShownText(tr("Search Albums")))
        // The filter reads the query and the titles through a weak reference set below.
        let owner = Weak<AlbumChooser>()
        filter = makeCustomFilter { item in
            guard let chooser = owner.object, let key = gtk_string_object_get_string(item.cast()) else { return false }
            return chooser.matches(String(cString: key))
        }
        let filtered = gtk_filter_list_model_new(keys.cast(), filter.cast())!  // takes the filter's reference
        let selection = gtk_no_selection_new(filtered.cast())!
        listView = gtk_list_view_new(selection.cast(), factory).cast()
        gtk_list_view_set_single_click_activate(listView, 1)
        gtk_widget_add_css_class(listView.widget, "navigation-sidebar")
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_min_content_height(scroller.cast(), 320)
        gtk_scrolled_window_set_max_content_height(scroller.cast(), 480)
        gtk_scrolled_window_set_propagate_natural_height(scroller.cast(), 1)
        gtk_widget_set_size_request(scroller, 320, -1)
        gtk_scrolled_window_set_child(scroller.cast(), listView.widget)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_box_append(box.cast(), search)
        gtk_box_append(box.cast(), scroller)
        popover = gtk_popover_new()
        gtk_widget_set_name(popover, "album-chooser")
        gtk_popover_set_child(popover.cast(), box)
        button = gtk_menu_button_new()
        gtk_menu_button_set_icon_name(button.cast(), "view-list-symbolic")
        Accessible.name(button, tooltip: tr("All Albums"))
        gtk_menu_button_set_popover(button.cast(), popover)

        owner.object = self
        onSignal(factory, "setup", pointer: { item in
            guard let item else { return }
            let chip = AlbumChip()
            gtk_widget_add_css_class(chip.root, "album-row")
            gtk_widget_set_halign(chip.root, GTK_ALIGN_START)
            gtk_list_item_set_child(item.cast(), chip.root)
            ObjectData.attach(chip, to: item, key: "gphotobrowse-album-row")
        })
        onSignal(factory, "bind", pointer: { [weak self] item in
            guard let self, let item, let chip: AlbumChip = ObjectData.attached(to: item, key: "gphotobrowse-album-row"),
                  let object = gtk_list_item_get_item(item.cast()), let key = gtk_string_object_get_string(object.cast()),
                  let summary = self.summaries[String(cString: key)] else { return }
            self.covers.show(summary, on: chip)
        })
        onSignal(factory, "unbind", pointer: { [weak self] item in
            guard let item, let chip: AlbumChip = ObjectData.attached(to: item, key: "gphotobrowse-album-row") else { return }
            self?.covers.release(chip)
            chip.clear()
        })
        onSignal(listView, "activate", integer: { [weak self] position in
            guard let self, let item = g_list_model_get_item(filtered.cast(), UInt32(bitPattern: position)) else { return }
            defer { g_object_unref(item) }
            guard let key = gtk_string_object_get_string(item.cast()), let album = AlbumID(key: String(cString: key)) else { return }
            gtk_popover_popdown(self.popover.cast())
            self.onSelect(album)
        })
        onSignal(search, "search-changed") { [weak self] in
            guard let self else { return }
            self.query = String(cString: gtk_editable_get_text(self.search.cast()))
            gtk_filter_changed(self.filter.cast(), GTK_FILTER_CHANGE_DIFFERENT)
        }
        onSignal(search, "activate") { [weak self] in self?.chooseFirst(filtered) }
        onSignal(popover, "show") { [weak self] in
            guard let self else { return }
            gtk_editable_set_text(self.search.cast(), "")
            gtk_widget_grab_focus(self.search)
        }
    }

    /// Lists these albums (folder albums, then the person's own).
    func show(_ albums: [AlbumSummary]) {
        summaries = Dictionary(albums.map { ($0.id.key, $0) }, uniquingKeysWith: { _, last in last })
        var strings = albums.map { strdup($0.id.key) } + [nil]
        strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                gtk_string_list_splice(keys, 0, UInt32(g_list_model_get_n_items(keys.cast())), pointer)
            }
        }
        for string in strings { free(string) }
    }

    /// Whether the album `key` names matches what was typed: every word of it, in any case
    /// and with or without accents, appears in its title.
    private func matches(_ key: String) -> Bool {
        guard let title = summaries[key]?.title else { return query.allSatisfy(\.isWhitespace) }
        return AlbumSearch.matches(title, query: query)
    }

    private func chooseFirst(_ filtered: OpaquePointer) {
        guard g_list_model_get_n_items(filtered.cast()) > 0, let item = g_list_model_get_item(filtered.cast(), 0) else { return }
        defer { g_object_unref(item) }
        guard let key = gtk_string_object_get_string(item.cast()), let album = AlbumID(key: String(cString: key)) else { return }
        gtk_popover_popdown(popover.cast())
        onSelect(album)
    }
}
