import CGtk
import PhotoCore

/// The album switcher in the title bar: a row of album titles, each with its cover and
/// count, that scrolls sideways when there are many (a virtualized GtkListView), with the
/// person's own albums after a heading. Clicking an album, or moving to it with the arrow
/// keys, shows it; the person's own albums' chips have a menu (`AlbumChipMenu`: Rename…,
/// Delete).
///
/// The list model is a GtkStringList of album keys (`AlbumID.key`, and `heading:` for the
/// heading); the summaries are looked up by key when a chip is bound.
@MainActor
final class AlbumSwitcher {
    private let live = LiveObjects.Token("AlbumSwitcher")
    let root: Widget
    private let listView: OpaquePointer
    private let keys: OpaquePointer  // GtkStringList
    private let selection: OpaquePointer  // GtkSingleSelection
    private var shownKeys: [String] = []
    private var summaries: [String: AlbumSummary] = [:]
    private var chips: [ObjectIdentifier: AlbumChip] = [:]
    /// Set while the switcher selects an album itself, so that it is not taken for a choice.
    private var selectingQuietly = false
    private static let headingKey = "heading:collections"
    private static let chipKey = "gphotobrowse-album-chip"

    /// The album marked as shown.
    private var currentKey: String?
    /// Set while a key press is handled: the person moves through the chips with the keyboard.
    private var choosingWithKeys = false

    /// The person chose an album; `withKeys`: with the arrow keys, the focus staying on the chips.
    var onSelect: (_ album: AlbumID, _ withKeys: Bool) -> Void = { _, _ in }
    /// The chips' covers.
    let covers = AlbumCovers()
    /// The menu of the person's own albums' chips.
    private(set) var chipMenu: AlbumChipMenu!

    init() {
        keys = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(keys.cast()).cast()
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 0)
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(selection.cast(), factory).cast()
        gtk_orientable_set_orientation(listView.cast(), GTK_ORIENTATION_HORIZONTAL)
        gtk_widget_add_css_class(listView.widget, "album-switcher")
        Texts.setTooltip(listView.widget, nil)

        root = gtk_scrolled_window_new()
        gtk_widget_add_css_class(root, "album-row")
        gtk_scrolled_window_set_policy(root.cast(), GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_width(root.cast(), 1)
        gtk_scrolled_window_set_child(root.cast(), listView.widget)
        gtk_widget_set_hexpand(root, 1)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)

        onSignal(factory, "setup", pointer: { [weak self] item in self?.setUp(item) })
        onSignal(factory, "bind", pointer: { [weak self] item in self?.bind(item) })
        onSignal(factory, "unbind", pointer: { [weak self] item in self?.unbind(item) })
        onSignal(factory, "teardown", pointer: { [weak self] item in self?.tearDown(item) })
        onSignal(selection, "notify::selected", pointer: { [weak self] _ in self?.selectionChanged() })
        installWheelScrolling()
        installKeyWatch()
        chipMenu = AlbumChipMenu(on: listView.widget, chipAt: { [weak self] x, y in self?.chip(at: x, y) },
                                 focusedChip: { [weak self] in self?.focusedChip })
    }

    /// A mouse wheel (vertical) scrolls the row sideways, as in GNOME's tab bars.
    private func installWheelScrolling() {
        let scroll = gtk_event_controller_scroll_new(GtkEventControllerScrollFlags(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue))!
        onScroll(scroll) { [root, scroll] _, dy in
            guard let adjustment = gtk_scrolled_window_get_hadjustment(root.cast()) else { return false }
            // Wheels click in steps of 1; touchpads report pixels.
            let pixels = gtk_event_controller_scroll_get_unit(scroll.cast()) == GDK_SCROLL_UNIT_SURFACE ? dy : dy * 80
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + pixels)
            return true
        }
        gtk_widget_add_controller(root, scroll)
    }

    /// Notes that a key press is being handled: a choice it makes is the keyboard's.
    private func installKeyWatch() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        onKeyPressed(keys) { [weak self] _, _ in
            guard let self, !self.choosingWithKeys else { return false }
            self.choosingWithKeys = true
            whenIdle { [weak self] in self?.choosingWithKeys = false }
            return false
        }
        gtk_widget_add_controller(listView.widget, keys)
    }

    /// Shows these albums (folder albums, then the person's own under their heading) with
    /// `current` selected.
    func show(_ albums: [AlbumSummary], collections: [AlbumSummary], current: AlbumID?) {
        var newKeys = albums.map(\.id.key)
        if !collections.isEmpty { newKeys += [Self.headingKey] + collections.map(\.id.key) }
        summaries = Dictionary((albums + collections).map { ($0.id.key, $0) }, uniquingKeysWith: { _, last in last })
        if newKeys != shownKeys {
            replaceKeys(with: newKeys)
        } else {
            refreshChips()
        }
        if let current { select(current) }
    }

    /// Marks `album` as the one shown, without announcing a choice, and scrolls it into view.
    func select(_ album: AlbumID) {
        currentKey = album.key
        guard let position = shownKeys.firstIndex(of: album.key) else { return }
        selectingQuietly = true
        gtk_single_selection_set_selected(selection, UInt32(position))
        selectingQuietly = false
        gtk_widget_activate_action_variant(listView.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(position)))
    }

    private func replaceKeys(with newKeys: [String]) {
        // Keep what the two lists share at the start and the end: chips of albums that only
        // changed their count are not rebuilt.
        var prefix = 0
        while prefix < shownKeys.count, prefix < newKeys.count, shownKeys[prefix] == newKeys[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shownKeys.count - prefix, suffix < newKeys.count - prefix,
              shownKeys[shownKeys.count - 1 - suffix] == newKeys[newKeys.count - 1 - suffix] { suffix += 1 }
        let inserted = newKeys[prefix..<(newKeys.count - suffix)]
        var strings = inserted.map { strdup($0) } + [nil]
        selectingQuietly = true
        strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
                gtk_string_list_splice(keys, UInt32(prefix), UInt32(shownKeys.count - prefix - suffix), pointer)
            }
        }
        selectingQuietly = false
        for string in strings { free(string) }
        shownKeys = newKeys
        refreshChips()
    }

    private func refreshChips() {
        for chip in chips.values {
            guard let key = chip.album?.id.key, let summary = summaries[key] else { continue }
            covers.show(summary, on: chip)
        }
    }

    private func selectionChanged() {
        guard !selectingQuietly else { return }
        let position = Int(gtk_single_selection_get_selected(selection))
        guard position < shownKeys.count else { return }
        guard let album = AlbumID(key: shownKeys[position]) else {
            // The heading takes the focus on the way to the albums after it, not the selection.
            if let currentKey, let shown = shownKeys.firstIndex(of: currentKey) {
                selectingQuietly = true
                gtk_single_selection_set_selected(selection, UInt32(shown))
                selectingQuietly = false
            }
            return
        }
        onSelect(album, choosingWithKeys)
    }

    // MARK: Chips

    private func setUp(_ item: UnsafeMutableRawPointer?) {
        guard let item else { return }
        let chip = AlbumChip()
        chips[ObjectIdentifier(chip)] = chip
        gtk_list_item_set_child(item.cast(), chip.root)
        ObjectData.attach(chip, to: item, key: Self.chipKey)
    }

    private func chip(for item: UnsafeMutableRawPointer?) -> AlbumChip? {
        guard let item else { return nil }
        return ObjectData.attached(to: item, key: Self.chipKey)
    }

    /// The chip at (x, y) in the list view, if any.
    private func chip(at x: Double, _ y: Double) -> AlbumChip? {
        var widget = gtk_widget_pick(listView.widget, x, y, GTK_PICK_DEFAULT)
        while let current = widget, current != listView.widget {
            if let chip = chips.values.first(where: { $0.root == current }) { return chip }
            widget = gtk_widget_get_parent(current)
        }
        return nil
    }

    /// The chip whose row has the keyboard focus.
    private var focusedChip: AlbumChip? {
        chips.values.first { gtk_widget_get_parent($0.root).map { gtk_widget_has_focus($0) != 0 } ?? false }
    }

    private func bind(_ item: UnsafeMutableRawPointer?) {
        guard let item, let chip = chip(for: item), let object = gtk_list_item_get_item(item.cast()),
              let keyPointer = gtk_string_object_get_string(object.cast()) else { return }
        let key = String(cString: keyPointer)
        if key == Self.headingKey {
            chip.showHeading(tr("Your Albums"))
            // Selectable, or GTK 4.8 gives it no focus and the arrow keys stop before it; a
            // selection of it is taken back (`selectionChanged`).
            gtk_list_item_set_selectable(item.cast(), 1)
            gtk_list_item_set_activatable(item.cast(), 0)
            return
        }
        gtk_list_item_set_selectable(item.cast(), 1)
        gtk_list_item_set_activatable(item.cast(), 1)
        guard let summary = summaries[key] else { return }
        covers.show(summary, on: chip)
    }

    private func unbind(_ item: UnsafeMutableRawPointer?) {
        guard let chip = chip(for: item) else { return }
        covers.release(chip)
        chip.clear()
    }

    private func tearDown(_ item: UnsafeMutableRawPointer?) {
        guard let chip = chip(for: item) else { return }
        covers.release(chip)
        chips[ObjectIdentifier(chip)] = nil
    }
}
