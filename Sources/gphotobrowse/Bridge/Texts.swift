import CGtk
import PhotoCore

/// Every text a widget shows goes through here, as a `ShownText`: the one place that calls
/// GTK's and libadwaita's text setters (`build-aux/check-shown-text.sh` fails on a call
/// elsewhere). Widgets that parse Pango markup get the text escaped, so that a server's reason
/// phrase, a web list's title or a folder named "A & B" is shown as written, never drawn as
/// markup: in libadwaita 1.2 the status page's description, a toast's title and the rows'
/// titles and subtitles are markup (a row's `use-markup` is true unless turned off, and not
/// every row has it). The rest take the text as it is.
@MainActor
enum Texts {
    // Plain text.

    /// The window's own title, which window managers and task switchers show.
    static func setTitle(window: UnsafeMutablePointer<GtkWindow>, _ text: ShownText) {
        gtk_window_set_title(window, text.plain)
    }

    static func setTitle(windowTitle: Widget, _ text: ShownText) {
        adw_window_title_set_title(windowTitle.cast(), text.plain)
    }

    static func setSubtitle(windowTitle: Widget, _ text: ShownText?) {
        adw_window_title_set_subtitle(windowTitle.cast(), text?.plain ?? "")
    }

    static func setTitle(statusPage: Widget, _ text: ShownText?) {
        adw_status_page_set_title(statusPage.cast(), text?.plain)
    }

    /// A tooltip GTK asks for as it shows it (`query-tooltip`, `onQueryTooltip`).
    static func setTooltip(asked tooltip: OpaquePointer, _ text: ShownText) {
        gtk_tooltip_set_text(tooltip, text.plain)
    }

    /// A tooltip (GTK escapes `tooltip-text` itself).
    static func setTooltip(_ widget: Widget, _ text: ShownText?) {
        // Setting a tooltip updates the widget's accessible description (a message to the
        // accessibility bus): not when it says the same.
        let plain = text?.plain
        let current = gtk_widget_get_tooltip_text(widget).map { String(cString: $0) }
        guard current != plain else { return }
        gtk_widget_set_tooltip_text(widget, plain)
    }

    /// An AdwMessageDialog: its heading and body are plain text unless told otherwise.
    static func messageDialog(_ parent: UnsafeMutablePointer<GtkWindow>?, heading: ShownText, body: ShownText?) -> UnsafeMutablePointer<AdwMessageDialog> {
        adw_message_dialog_new(parent, heading.plain, body?.plain).cast()
    }

    static func setBody(dialog: UnsafeMutablePointer<AdwMessageDialog>, _ text: ShownText) {
        adw_message_dialog_set_body(dialog, text.plain)
    }

    static func label(_ text: ShownText) -> Widget {
        gtk_label_new(text.plain)
    }

    static func setText(label: Widget, _ text: ShownText?) {
        gtk_label_set_text(label.cast(), text?.plain ?? "")
    }

    static func checkButton(_ text: ShownText) -> Widget {
        gtk_check_button_new_with_label(text.plain)
    }

    static func setLabel(button: Widget, _ text: ShownText) {
        gtk_button_set_label(button.cast(), text.plain)
    }

    // Markup: escaped.

    /// The status page's description, which AdwStatusPage parses as markup.
    static func setDescription(statusPage: Widget, _ text: ShownText?) {
        adw_status_page_set_description(statusPage.cast(), text.map { $0.plain.isEmpty ? nil : $0.markup } ?? nil)
    }

    /// A toast: libadwaita 1.2 draws its title as markup.
    static func toast(_ text: ShownText) -> OpaquePointer {
        adw_toast_new(text.markup)!
    }

    /// A preferences row's title (markup while its `use-markup` is true, the default).
    static func setTitle(row: Widget, _ text: ShownText) {
        adw_preferences_row_set_use_markup(row.cast(), 1)
        adw_preferences_row_set_title(row.cast(), text.markup)
    }

    /// An action row's subtitle (markup like its title).
    static func setSubtitle(actionRow: Widget, _ text: ShownText) {
        adw_preferences_row_set_use_markup(actionRow.cast(), 1)
        adw_action_row_set_subtitle(actionRow.cast(), text.markup)
    }
}
