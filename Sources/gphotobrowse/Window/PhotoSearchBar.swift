import CGtk
import Foundation
import PhotoCore

/// The search bar over the grid (Ctrl+F): words matched against the photos' names, tags, cameras and
/// folders as one types, a Favourites toggle, a least rating, when the photos were taken
/// and whether photos or videos; Escape clears it and closes it. What it asks for goes to `onChange`; the window filters (`PhotoFiltering`).
@MainActor
final class PhotoSearchBar {
    let root: Widget
    private let entry: Widget
    private let favourites: Widget
    private let rating: Widget
    private let taken: Widget
    private let kind: Widget
    private let count: Widget
    /// The periods `taken` lists, from the day the bar was made.
    private let periods = TakenPeriod.choices(now: TakenPeriod.localNow)
    var onChange: (PhotoSearch) -> Void = { _ in }

    init() {
        root = gtk_search_bar_new()
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        entry = gtk_search_entry_new()
        // Each key searches at once: a search of 100,000 photos takes milliseconds, where
        // GTK's wait for more keys (150 ms) would be most of the time a key takes.
        gtk_search_entry_set_search_delay(entry.cast(), 0)
        gtk_widget_set_size_request(entry, 320, -1)
        Accessible.name(entry, tooltip: tr("Search names, tags, cameras and folders"))
        favourites = gtk_toggle_button_new()
        gtk_button_set_icon_name(favourites.cast(), "emblem-favorite-symbolic")
        Accessible.name(favourites, tooltip: tr("Favourites only"))
        let choices = [tr("Any rating")] + (1...PhotoMarks.maxRating).map { String(repeating: "★", count: $0) + "+" }
        rating = Self.dropDown(choices)
        Accessible.name(rating, tooltip: tr("Least rating"))
        taken = Self.dropDown(periods.map(Self.label))
        Accessible.name(taken, tooltip: tr("Date taken"))
        kind = Self.dropDown([tr("Photos and videos"), tr("Photos only"), tr("Videos only")])
        Accessible.name(kind, tooltip: tr("Photos or videos"))
        count = gtk_label_new(nil)
        gtk_widget_add_css_class(count, "dim-label")
        for child in [entry, favourites, rating, taken, kind, count] { gtk_box_append(box.cast(), child) }
        gtk_search_bar_set_child(root.cast(), box)
        gtk_search_bar_connect_entry(root.cast(), entry.cast())
        // The bar shows at once, its field taking the first key typed: while GtkSearchBar's
        // revealer slides it in, the field is not mapped until the first frame of the slide,
        // and a key typed right after Ctrl+F on a busy window was lost. A slide of no length,
        // not no transition: a revealer without one takes the bar's height even while hidden.
        if let revealer = gtk_widget_get_first_child(root),
           g_type_check_instance_is_a(revealer.cast(), gtk_revealer_get_type()) != 0 {
            gtk_revealer_set_transition_duration(revealer.cast(), 0)
        }
        // No close icon, as in GNOME's own apps: Escape and Ctrl+F close the bar (GTK 4.8's
        // close icon would be a button without a name for a screen reader).
        Accessible.nameInnerButtons(of: rating) { _ in tr("Least rating") }
        Accessible.nameInnerButtons(of: taken) { _ in tr("Date taken") }
        Accessible.nameInnerButtons(of: kind) { _ in tr("Photos or videos") }
        Accessible.nameInnerButtons(of: entry) { _ in tr("Clear Search") }

        onSignal(entry, "search-changed") { [weak self] in
            guard let self else { return }
            let search = self.search
            // The key's arrival, against which a benchmark times `trace filtered`.
            Trace.milestone("search-typed", search.text.count)
            self.onChange(search)
        }
        onSignal(favourites, "toggled") { [weak self] in self?.changed() }
        onSignal(rating, "notify::selected") { [weak self] in self?.changed() }
        onSignal(taken, "notify::selected") { [weak self] in self?.changed() }
        onSignal(kind, "notify::selected") { [weak self] in self?.changed() }
        // Escape in the field: the search cleared and the bar closed; on any other control of
        // the bar too (once a drop-down has closed its list).
        onSignal(entry, "stop-search") { [weak self] in self?.close() }
        let keys = gtk_event_controller_key_new()!
        onKeyPressed(keys) { [weak self] keyval, _ in
            guard Int32(keyval) == GDK_KEY_Escape, let self, self.isOpen else { return false }
            self.close()
            return true
        }
        gtk_widget_add_controller(box, keys)
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
        let period = periods[min(Int(gtk_drop_down_get_selected(taken.cast())), periods.count - 1)]
        let (from, before) = period.bounds(now: TakenPeriod.localNow)
        return PhotoSearch(text: text, favouritesOnly: gtk_toggle_button_get_active(favourites.cast()) != 0,
                           minimumRating: Int(gtk_drop_down_get_selected(rating.cast())), takenFrom: from, takenBefore: before,
                           kind: PhotoSearch.Kind(rawValue: Int(gtk_drop_down_get_selected(kind.cast()))) ?? .all)
    }

    /// Ctrl+F: opens the bar with the focus in its field; open, takes the focus back to the
    /// field, or, with the focus there already, closes it (clearing the search).
    func toggle() {
        if isOpen, KeyboardFocus.isWithin(entry) { return close() }
        gtk_search_bar_set_search_mode(root.cast(), 1)
        gtk_widget_grab_focus(entry)
    }

    /// The bar closed with the keyboard focus in it (Escape, Ctrl+F): where the focus goes
    /// instead, at once rather than once the bar has slid away.
    var onFocusLeaving: () -> Void = {}

    func close() {
        let hadFocus = KeyboardFocus.isWithin(root)
        gtk_search_bar_set_search_mode(root.cast(), 0)
        clear()
        if hadFocus { onFocusLeaving() }
    }

    private func clear() {
        let wasEmpty = search.isEmpty
        gtk_editable_set_text(entry.cast(), "")
        gtk_toggle_button_set_active(favourites.cast(), 0)
        gtk_drop_down_set_selected(rating.cast(), 0)
        gtk_drop_down_set_selected(taken.cast(), 0)
        gtk_drop_down_set_selected(kind.cast(), 0)
        Texts.setText(label: count, nil)
        if !wasEmpty { onChange(search) }
    }

    private func changed() { onChange(search) }

    private static func dropDown(_ choices: [String]) -> Widget {
        var strings = choices.map { UnsafePointer(strdup($0)) } + [nil]
        defer { strings.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return gtk_drop_down_new_from_strings(&strings)
    }

    /// A period as the bar lists it.
    private static func label(_ period: TakenPeriod) -> String {
        switch period {
        case .any: tr("Any date")
        case .last30Days: tr("Last 30 days")
        case .last12Months: tr("Last 12 months")
        case .year(let year): String(year)
        case .before(let year): String(format: tr("Before %d"), year)
        }
    }

    /// "12 of 340 photos" beside the field.
    func showCount(_ shown: Int, of total: Int) {
        Texts.setText(label: count, ShownText(trn("%d of %d photo", "%d of %d photos", total, shown, total)))
    }
}
