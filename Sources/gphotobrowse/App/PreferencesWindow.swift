import CGtk
import PhotoCore

/// The Preferences window (AdwPreferencesWindow, main menu → Preferences, Ctrl+comma): the
/// sort order, the grid's tile size and the slideshow's interval. Changes apply at once, to
/// every window, and are remembered (`Preferences`); a change made elsewhere meanwhile
/// (Ctrl+plus in a window, `gsettings`) shows here too. One window at a time.
@MainActor
final class PreferencesWindow {
    private let live = LiveObjects.Token("PreferencesWindow")
    private static var shown: PreferencesWindow?

    private let window: Widget
    private let sortBy: Widget
    private let reversed: Widget
    private let tileScale: Widget
    private let tileRow: Widget
    private let interval: Widget
    private var observer: Observation?
    /// Set while the widgets are made to show the settings, so that is not taken for a choice.
    private var showing = false

    private static let sortKeys: [(SortKey, String)] = [
        (.dateTaken, tr("Date Taken")), (.name, tr("Name")), (.modified, tr("Modification Date")),
    ]

    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) {
        let preferences = shown ?? PreferencesWindow(parent: parent)
        shown = preferences
        gtk_window_present(preferences.window.window)
    }

    private init(parent: UnsafeMutablePointer<GtkWindow>?) {
        window = adw_preferences_window_new()
        LiveObjects.track(window)
        // Four settings on one page: nothing to search for.
        adw_preferences_window_set_search_enabled(window.cast(), 0)
        Texts.setTitle(window: window.window, ShownText(tr("Preferences")))
        if let parent {
            gtk_window_set_transient_for(window.window, parent)
            gtk_window_set_modal(window.window, 1)
            gtk_window_set_destroy_with_parent(window.window, 1)
        }
        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(page.cast(), tr("General"))
        adw_preferences_page_set_icon_name(page.cast(), "preferences-system-symbolic")
        adw_preferences_window_add(window.cast(), page.cast())

        // Folders: the order they are shown in.
        let labels = gtk_string_list_new(nil)!
        for (_, label) in Self.sortKeys { gtk_string_list_append(labels, label) }
        sortBy = adw_combo_row_new()
        Texts.setTitle(row: sortBy, ShownText(tr("Sort By")))
        adw_combo_row_set_model(sortBy.cast(), labels.cast())
        labels.unref()
        reversed = gtk_switch_new()
        gtk_widget_set_valign(reversed, GTK_ALIGN_CENTER)
        let reversedRow = Self.row(tr("Reverse Order"), subtitle: tr("The newest photos, or the last names, first"), suffix: reversed)
        adw_action_row_set_activatable_widget(reversedRow.cast(), reversed)
        Self.group(tr("Folders"), rows: [sortBy, reversedRow], in: page)

        // The grid: its tiles' size, in the steps Ctrl+plus and Ctrl+minus take.
        tileScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, Double(TileSize.steps.count - 1), 1)
        gtk_scale_set_draw_value(tileScale.cast(), 0)
        gtk_range_set_round_digits(tileScale.cast(), 0)
        for step in TileSize.steps.indices { gtk_scale_add_mark(tileScale.cast(), Double(step), GTK_POS_BOTTOM, nil) }
        gtk_widget_set_size_request(tileScale, 220, -1)
        gtk_widget_set_valign(tileScale, GTK_ALIGN_CENTER)
        tileRow = Self.row(tr("Tile Size"), subtitle: "", suffix: tileScale)
        Self.group(tr("Grid"), rows: [tileRow], in: page)

        // The slideshow: how long each photo stays.
        interval = gtk_spin_button_new_with_range(Double(SlideshowInterval.shortest), Double(SlideshowInterval.longest), 1)
        gtk_widget_set_valign(interval, GTK_ALIGN_CENTER)
        let intervalRow = Self.row(tr("Interval"), subtitle: tr("Seconds each photo is shown"), suffix: interval)
        Self.group(tr("Slideshow"), rows: [intervalRow], in: page)

        show(Preferences.shared.settings)
        onSignal(sortBy, "notify::selected", pointer: { [weak self] _ in self?.sortKeyChosen() })
        onSignal(reversed, "notify::active", pointer: { [weak self] _ in self?.chosen() })
        onSignal(tileScale, "value-changed") { [weak self] in self?.chosen() }
        onSignal(interval, "value-changed") { [weak self] in self?.chosen() }
        observer = Preferences.shared.observe { [weak self] _, new in self?.show(new) }
        onSignal(window, "destroy") { [weak self] in
            self?.observer = nil
            PreferencesWindow.shown = nil
        }
    }

    private static func row(_ title: String, subtitle: String, suffix: Widget) -> Widget {
        let row = adw_action_row_new()!
        Texts.setTitle(row: row, ShownText(title))
        if !subtitle.isEmpty { Texts.setSubtitle(actionRow: row, ShownText(subtitle)) }
        adw_action_row_add_suffix(row.cast(), suffix)
        return row
    }

    private static func group(_ title: String, rows: [Widget], in page: Widget) {
        let group = adw_preferences_group_new()!
        adw_preferences_group_set_title(group.cast(), title)
        for row in rows { adw_preferences_group_add(group.cast(), row) }
        adw_preferences_page_add(page.cast(), group.cast())
    }

    /// Shows `settings` in the widgets.
    private func show(_ settings: BrowserSettings) {
        showing = true
        defer { showing = false }
        let key = Self.sortKeys.firstIndex { $0.0 == settings.order.key } ?? 0
        if adw_combo_row_get_selected(sortBy.cast()) != UInt32(key) { adw_combo_row_set_selected(sortBy.cast(), UInt32(key)) }
        gtk_switch_set_active(reversed.cast(), settings.order.reversed ? 1 : 0)
        let step = Double(settings.tileSize.nearestStep)
        if gtk_range_get_value(tileScale.cast()) != step { gtk_range_set_value(tileScale.cast(), step) }
        let edge = settings.tileSize.edge
        Texts.setSubtitle(actionRow: tileRow, ShownText(trn("%d pixel", "%d pixels", edge, edge)))
        let seconds = Double(settings.slideshowInterval.seconds)
        if gtk_spin_button_get_value(interval.cast()) != seconds { gtk_spin_button_set_value(interval.cast(), seconds) }
    }

    /// Another sort key: the direction it reads best in comes with it, as in the sort menu
    /// (the newest first for dates, A to Z for names).
    private func sortKeyChosen() {
        guard !showing else { return }
        let index = Int(adw_combo_row_get_selected(sortBy.cast()))
        guard Self.sortKeys.indices.contains(index) else { return }
        let key = Self.sortKeys[index].0
        Preferences.shared.update { $0.order = PhotoOrder(key: key, reversed: key == .dateTaken || key == .modified) }
    }

    private func chosen() {
        guard !showing else { return }
        let reversed = gtk_switch_get_active(self.reversed.cast()) != 0
        let step = Int(gtk_range_get_value(tileScale.cast()).rounded())
        let seconds = Int(gtk_spin_button_get_value(interval.cast()).rounded())
        Preferences.shared.update { settings in
            settings.order.reversed = reversed
            // The step shown stays the size chosen elsewhere between two steps.
            if step != settings.tileSize.nearestStep { settings.tileSize = TileSize(step: step) }
            settings.slideshowInterval = SlideshowInterval(seconds: seconds)
        }
    }
}
