import CGtk
import Foundation
import PhotoCore

/// The board's toolbar, under the board: the tools (one pressed at a time), the document's
/// three colours and any other (GtkColorButton: a palette and a custom colour), the width,
/// and Insert Photo and Clear.
@MainActor
final class BoardToolbar {
    let root: Widget
    private unowned let editor: BoardEditor
    private var toolButtons: [BoardTool: Widget] = [:]
    /// The presets' buttons: the one of the colour in use is pressed.
    private var colourButtons: [(DrawingColour, Widget)] = []
    private let widthScale: Widget

    init(editor: BoardEditor) {
        self.editor = editor
        root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_add_css_class(root, "toolbar")
        gtk_widget_set_margin_start(root, 6)
        gtk_widget_set_margin_end(root, 6)
        // The width, ¼ to 8 times the board's suggested one, on a scale of powers of two.
        widthScale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, -2, 3, 0.25)

        var group: Widget?
        for tool in BoardTool.allCases {
            let button = gtk_toggle_button_new()!
            gtk_button_set_child(button.cast(), ToolIcon.widget(for: tool))
            gtk_widget_set_tooltip_text(button, "\(Self.name(of: tool)) (\(String(tool.key).uppercased()))")
            gtk_widget_add_css_class(button, "flat")
            if let group { gtk_toggle_button_set_group(button.cast(), group.cast()) }
            group = group ?? button
            onSignal(button, "toggled") { [weak self, button] in
                guard let self, gtk_toggle_button_get_active(button.cast()) != 0, self.editor.tool != tool else { return }
                self.editor.tool = tool
            }
            toolButtons[tool] = button
            gtk_box_append(root.cast(), button)
        }
        gtk_box_append(root.cast(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))

        for (colour, name) in zip(DrawingColour.presets, [tr("Red"), tr("Green"), tr("Blue")]) {
            let button = gtk_toggle_button_new()!
            gtk_button_set_child(button.cast(), ToolIcon.swatch(colour))
            gtk_widget_set_tooltip_text(button, name)
            gtk_widget_add_css_class(button, "flat")
            onSignal(button, "toggled") { [weak self, button] in
                guard let self, gtk_toggle_button_get_active(button.cast()) != 0, self.editor.colour != colour else { return }
                self.editor.choose(colour)
            }
            colourButtons.append((colour, button))
            gtk_box_append(root.cast(), button)
        }
        // Any other colour: GTK's palette and custom colour, starting from GNOME's yellow.
        let other = gtk_color_button_new()!
        var yellow = GdkRGBA(red: 0.965, green: 0.827, blue: 0.176, alpha: 1)
        gtk_color_chooser_set_rgba(other.cast(), &yellow)
        gtk_widget_set_tooltip_text(other, tr("Other Colour…"))
        gtk_color_button_set_title(other.cast(), tr("Colour"))
        onSignal(other, "color-set") { [weak self, other] in
            var rgba = GdkRGBA()
            gtk_color_chooser_get_rgba(other.cast(), &rgba)
            self?.editor.choose(DrawingColour(red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue), alpha: Double(rgba.alpha)))
        }
        gtk_box_append(root.cast(), other)
        gtk_box_append(root.cast(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))

        gtk_scale_set_draw_value(widthScale.cast(), 0)
        gtk_range_set_value(widthScale.cast(), 0)
        gtk_widget_set_size_request(widthScale, 140, -1)
        gtk_widget_set_tooltip_text(widthScale, tr("Width ([ and ])"))
        onSignal(widthScale, "value-changed") { [weak self] in
            guard let self else { return }
            self.editor.widthFactor = pow(2, gtk_range_get_value(self.widthScale.cast()))
        }
        gtk_box_append(root.cast(), widthScale)

        let spacer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_hexpand(spacer, 1)
        gtk_box_append(root.cast(), spacer)
        for (icon, tooltip, action) in [("image-x-generic-symbolic", tr("Insert Photo… (Ctrl+V pastes one)"), "win.insert-photo"),
                                        ("edit-clear-all-symbolic", tr("Clear"), "win.clear")] {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_set_tooltip_text(button, tooltip)
            gtk_actionable_set_action_name(button.cast(), action)
            gtk_widget_add_css_class(button, "flat")
            gtk_box_append(root.cast(), button)
        }
        show()
    }

    /// Shows the editor's tool, colour and width (changed by keys).
    func show() {
        for (colour, button) in colourButtons {
            let active: gboolean = editor.colour == colour ? 1 : 0
            if gtk_toggle_button_get_active(button.cast()) != active { gtk_toggle_button_set_active(button.cast(), active) }
        }
        if let button = toolButtons[editor.tool], gtk_toggle_button_get_active(button.cast()) == 0 {
            gtk_toggle_button_set_active(button.cast(), 1)
        }
        let value = log2(editor.widthFactor)
        if abs(gtk_range_get_value(widthScale.cast()) - value) > 0.01 { gtk_range_set_value(widthScale.cast(), value) }
    }

    static func name(of tool: BoardTool) -> String {
        switch tool {
        case .pen: tr("Pen")
        case .highlighter: tr("Highlighter")
        case .line: tr("Line")
        case .arrow: tr("Arrow")
        case .rectangle: tr("Rectangle")
        case .ellipse: tr("Ellipse")
        case .text: tr("Text")
        case .pixelate: tr("Pixelate (hides faces and number plates)")
        case .eraser: tr("Eraser")
        case .select: tr("Select and Move")
        case .crop: tr("Crop")
        }
    }
}
