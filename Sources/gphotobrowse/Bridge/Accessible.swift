import CGtk
import PhotoCore
import Foundation

/// What a screen reader says of a widget: its accessible name (GTK_ACCESSIBLE_PROPERTY_LABEL),
/// description and selected state, for the widgets GTK cannot name by itself (icon buttons,
/// tiles, the viewer's canvas).
@MainActor
enum Accessible {
    static func setLabel(_ widget: Widget, _ label: String) {
        cgtk_accessible_set_label(OpaquePointer(widget), label)
    }

    static func setDescription(_ widget: Widget, _ description: String) {
        cgtk_accessible_set_description(OpaquePointer(widget), description)
    }

    static func setSelected(_ widget: Widget, _ selected: Bool) {
        cgtk_accessible_set_selected(OpaquePointer(widget), selected ? 1 : 0)
    }

    /// A button or control shown as an icon: `tooltip` ("Next Photo (Right)") for the eye, its
    /// name ("Next Photo") for a screen reader, the shortcut in parentheses as its description.
    static func name(_ widget: Widget, tooltip: String) {
        Texts.setTooltip(widget, ShownText(tooltip))
        let (name, shortcut) = splitShortcut(tooltip)
        setLabel(widget, name)
        if let shortcut { setDescription(widget, shortcut) }
    }

    /// A button labelled with a mnemonic ("_Retry"): GTK 4.8 names it by its label property
    /// and again by the label it is labelled by, underscore and all ("_Retry Retry"); a screen
    /// reader says "Retry".
    static func name(_ widget: Widget, mnemonic: String) {
        gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        setLabel(widget, mnemonic.replacingOccurrences(of: "__", with: "\u{0}").replacingOccurrences(of: "_", with: "")
            .replacingOccurrences(of: "\u{0}", with: "_"))
    }

    /// An AdwSplitButton: its button named `name`, its arrow `menu` (GTK names them after
    /// their widget types).
    static func name(splitButton: Widget, _ name: String, menu: String) {
        var child = gtk_widget_get_first_child(splitButton)
        while let widget = child {
            if cgtk_widget_is_a(widget, gtk_menu_button_get_type()) != 0 {
                for part in [widget, gtk_widget_get_first_child(widget)].compactMap({ $0 }) {
                    gtk_accessible_reset_relation(OpaquePointer(part), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
                    setLabel(part, menu)
                }
            } else if cgtk_widget_is_a(widget, gtk_button_get_type()) != 0 {
                setLabel(widget, name)
            }
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// The buttons GTK builds inside `widget` for itself (a drop-down's toggle, a search bar's
    /// close icon, a search entry's clear icon), named by `name` from the icon each shows, or
    /// from its type when it shows none: GTK 4.8 names them after their widget types.
    static func nameInnerButtons(of widget: Widget, _ name: (_ icon: String?) -> String?) {
        var child = gtk_widget_get_first_child(widget)
        while let inner = child {
            let role = gtk_accessible_get_accessible_role(OpaquePointer(inner))
            if role == GTK_ACCESSIBLE_ROLE_BUTTON {
                let icon = cgtk_widget_is_a(inner, gtk_image_get_type()) != 0
                    ? gtk_image_get_icon_name(OpaquePointer(inner)).map { String(cString: $0) } : nil
                if let label = name(icon) { setLabel(inner, label) }
            }
            nameInnerButtons(of: inner, name)
            child = gtk_widget_get_next_sibling(inner)
        }
    }

    /// "Next Photo (Right)" → ("Next Photo", "Right"); a text without a final parenthesis as it is.
    static func splitShortcut(_ tooltip: String) -> (String, String?) {
        guard tooltip.hasSuffix(")") || tooltip.hasSuffix("）"),
              let open = tooltip.lastIndex(where: { $0 == "(" || $0 == "（" }), open > tooltip.startIndex else { return (tooltip, nil) }
        let name = tooltip[..<open].trimmingCharacters(in: .whitespaces)
        let shortcut = tooltip[tooltip.index(after: open)..<tooltip.index(before: tooltip.endIndex)]
        return name.isEmpty ? (tooltip, nil) : (name, String(shortcut))
    }
}
