import CGtk
import PhotoCore

/// The header bar's sort menu: by date taken, name or modification date, and reversed.
/// Its choices are window actions with state (`win.sort-by`, `win.sort-reversed`), so the
/// menu shows the current order as radio and check items.
@MainActor
final class SortMenu {
    let button: Widget
    private let sortBy: OpaquePointer
    private let reversed: OpaquePointer
    private var order: PhotoOrder

    /// The person chose another order.
    var onChange: (PhotoOrder) -> Void = { _ in }

    private static let labels: [(SortKey, String)] = [
        (.dateTaken, tr("Date Taken")), (.name, tr("Name")), (.modified, tr("Modification Date")),
    ]

    init(window: UnsafeMutablePointer<GtkWindow>, order: PhotoOrder) {
        self.order = order
        let stringType = g_variant_type_new("s")
        sortBy = g_simple_action_new_stateful("sort-by", stringType, g_variant_new_string(order.key.rawValue)).cast()
        g_variant_type_free(stringType)
        reversed = g_simple_action_new_stateful("sort-reversed", nil, g_variant_new_boolean(order.reversed ? 1 : 0)).cast()
        g_action_map_add_action(window.cast(), sortBy.cast())
        g_action_map_add_action(window.cast(), reversed.cast())

        let keys = g_menu_new()!
        for (key, label) in Self.labels {
            g_menu_append(keys, label, "win.sort-by::\(key.rawValue)")
        }
        let direction = g_menu_new()!
        g_menu_append(direction, tr("Reverse Order"), "win.sort-reversed")
        let menu = g_menu_new()!
        g_menu_append_section(menu, tr("Sort By"), keys.cast())
        g_menu_append_section(menu, nil, direction.cast())
        keys.unref()
        direction.unref()

        button = gtk_menu_button_new()
        gtk_menu_button_set_icon_name(button.cast(), "view-sort-descending-symbolic")
        gtk_menu_button_set_menu_model(button.cast(), menu.cast())
        Accessible.name(button, tooltip: tr("Sort"))
        menu.unref()

        onSignal(sortBy, "change-state", pointer: { [weak self] value in
            guard let self, let value, let raw = g_variant_get_string(value.cast(), nil),
                  let key = SortKey(rawValue: String(cString: raw)) else { return }
            var order = self.order
            order.key = key
            // A person picking tr("Date Taken") wants the newest first; names read A to Z.
            order.reversed = key == .dateTaken || key == .modified
            self.choose(order)
        })
        onSignal(reversed, "change-state", pointer: { [weak self] value in
            guard let self, let value else { return }
            var order = self.order
            order.reversed = g_variant_get_boolean(value.cast()) != 0
            self.choose(order)
        })
        sortBy.unref()
        reversed.unref()
    }

    /// Shows `order` as the current one without announcing a change.
    func show(_ order: PhotoOrder) {
        self.order = order
        g_simple_action_set_state(sortBy.cast(), g_variant_new_string(order.key.rawValue))
        g_simple_action_set_state(reversed.cast(), g_variant_new_boolean(order.reversed ? 1 : 0))
    }

    private func choose(_ order: PhotoOrder) {
        show(order)
        onChange(order)
    }
}
