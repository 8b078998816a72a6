import CGtk

/// Modal questions and reports (GtkMessageDialog: GTK 4.8 has no GtkAlertDialog).
@MainActor
enum Dialogs {
    /// Tells the person something went wrong, with the details.
    static func inform(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, details: String) {
        let dialog = make(parent, type: GTK_MESSAGE_WARNING, title: title, details: details)
        gtk_dialog_add_button(dialog.cast(), "_Close", GTK_RESPONSE_CLOSE.rawValue)
        onSignal(dialog, "response", integer: { _ in gtk_window_destroy(dialog.cast()) })
        gtk_window_present(dialog.cast())
    }

    /// Asks before something that cannot be undone; `confirmed` runs on the destructive answer.
    static func confirm(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, details: String, action: String,
                        confirmed: @escaping @MainActor () -> Void) {
        let dialog = make(parent, type: GTK_MESSAGE_QUESTION, title: title, details: details)
        gtk_dialog_add_button(dialog.cast(), "_Cancel", GTK_RESPONSE_CANCEL.rawValue)
        if let button = gtk_dialog_add_button(dialog.cast(), action, GTK_RESPONSE_ACCEPT.rawValue) {
            gtk_widget_add_css_class(button, "destructive-action")
        }
        gtk_dialog_set_default_response(dialog.cast(), GTK_RESPONSE_CANCEL.rawValue)
        onSignal(dialog, "response", integer: { response in
            gtk_window_destroy(dialog.cast())
            if response == GTK_RESPONSE_ACCEPT.rawValue { confirmed() }
        })
        gtk_window_present(dialog.cast())
    }

    private static func make(_ parent: UnsafeMutablePointer<GtkWindow>, type: GtkMessageType, title: String, details: String) -> Widget {
        // gtk_message_dialog_new is variadic: build the dialog from properties instead.
        let dialog: Widget = g_object_new_with_properties(gtk_message_dialog_get_type(), 0, nil, nil).cast()
        g_object_ref_sink(dialog.raw)
        gtk_window_set_transient_for(dialog.cast(), parent)
        gtk_window_set_modal(dialog.cast(), 1)
        setEnum(dialog, "message-type", Int32(type.rawValue))
        setString(dialog, "text", title)
        setString(dialog, "secondary-text", details)
        return dialog
    }

    private static func setString(_ object: Widget, _ property: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, cgtk_type_string())
        g_value_set_string(&value, text)
        g_object_set_property(object.object, property, &value)
        g_value_unset(&value)
    }

    private static func setEnum(_ object: Widget, _ property: String, _ number: Int32) {
        var value = GValue()
        g_value_init(&value, gtk_message_type_get_type())
        g_value_set_enum(&value, number)
        g_object_set_property(object.object, property, &value)
        g_value_unset(&value)
    }
}
