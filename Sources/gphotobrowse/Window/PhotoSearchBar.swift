import CGtk
import PhotoCore

/// The search bar over the grid (Ctrl+F): words matched against the photos' names, tags and
/// folders as one types, a Favourites toggle and a least rating; Escape clears it and closes
/// it. What it asks for goes to `onChange`; the window filters (`PhotoFiltering`).
@MainActor
final class PhotoSearchBar {
    let root: Widget
    private let entry: Widget
    private let favourites: Widget
    private let rating: Widget
    private let count: Widget
    var onChange: (PhotoSearch) -> Void = { _ in }

    init() {
        root = gtk_search_bar_new()
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        entry = gtk_search_entry_new()
        gtk_widget_set_size_request(entry, 320, -1)
        Accessible.name(entry, tooltip: tr("Search names, tags and folders"))
        favourites = gtk_toggle_button_new()
        gtk_button_set_icon_name(favourites.cast(), "emblem-favorite-symbolic")
        Accessible.name(favourites, tooltip: tr("Favourites only"))
        let choices = [tr("Any rating")] + (1...PhotoMarks.maxRating).map { String(repeating: "★", count: $0) + "+" }
        var strings = choices.map { UnsafePointer(strdup($0)) } + [nil]
        rating = gtk_drop_down_new_from_strings(&strings)
        strings.forEach { free(UnsafeMutablePointer(mutating: $0)) }
        Accessible.name(rating, tooltip: tr("Least rating"))
        count = gtk_label_new(nil)
        gtk_widget_add_css_class(count, "dim-label")
        for child in [entry, favourites, rating, count] { gtk_box_append(box.cast(), child) }
        gtk_search_bar_set_child(root.cast(), box)
        gtk_search_bar_connect_entry(root.cast(), entry.cast())
        // No close icon, as in GNOME's own apps: Escape and Ctrl+F close the bar (GTK 4.8's
        // close icon would be a button without a name for a screen reader).
        Accessible.nameInnerButtons(of: rating) { _ in tr("Least rating") }
        Accessible.nameInnerButtons(of: entry) { _ in tr("Clear Search") }

        onSignal(entry, "search-changed") { [weak self] in self?.changed() }
        onSignal(favourites, "toggled") { [weak self] in self?.changed() }
        onSignal(rating, "notify::selected") { [weak self] in self?.changed() }
        // Escape in the field: the search cleared and the bar closed.
        onSignal(entry, "stop-search") { [weak self] in self?.close() }
        onSignal(root, "notify::search-mode-enabled") { [weak self] in
            guard let self else { return }
            // As popovers are traced (`ShownTrace`): the tests type once the bar is open.
            Trace.milestone(self.isOpen ? "shown" : "hidden", text: "GtkSearchBar search")
            if !self.isOpen { self.clear() }
        }
    }

    var isOpen: Bool { gtk_search_bar_get_search_mode(root.cast()) != 0 }

    var search: PhotoSearch {
        let text = gtk_editable_get_text(entry.cast()).map { String(cString: $0) } ?? ""
        return PhotoSearch(text: text, favouritesOnly: gtk_toggle_button_get_active(favourites.cast()) != 0,
                           minimumRating: Int(gtk_drop_down_get_selected(rating.cast())))
    }

    /// Ctrl+F: opens the bar with the focus in its field; open, takes the focus back to the
    /// field, or, with the focus there already, closes it (clearing the search).
    func toggle() {
        if isOpen, let text = gtk_root_get_focus(gtk_widget_get_root(entry)), gtk_widget_is_ancestor(text, entry) != 0 { return close() }
        gtk_search_bar_set_search_mode(root.cast(), 1)
        gtk_widget_grab_focus(entry)
    }

    func close() {
        gtk_search_bar_set_search_mode(root.cast(), 0)
        clear()
    }

    private func clear() {
        let wasEmpty = search.isEmpty
        gtk_editable_set_text(entry.cast(), "")
        gtk_toggle_button_set_active(favourites.cast(), 0)
        gtk_drop_down_set_selected(rating.cast(), 0)
        Texts.setText(label: count, nil)
        if !wasEmpty { onChange(search) }
    }

    private func changed() { onChange(search) }

    /// "12 of 340 photos" beside the field.
    func showCount(_ shown: Int, of total: Int) {
        Texts.setText(label: count, ShownText(trn("%d of %d photo", "%d of %d photos", total, shown, total)))
    }
}
