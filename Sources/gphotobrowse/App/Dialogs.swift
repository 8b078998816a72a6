import CGtk
import PhotoCore

/// Modal questions and reports (AdwMessageDialog).
///
/// A dialog is a toplevel window: GTK owns it from creation (it is never floating) until
/// `gtk_window_destroy`, which libadwaita calls itself once a response is chosen. The
/// handler's closure is released with the dialog.
@MainActor
enum Dialogs {
    /// Tells the person something went wrong, with the details.
    static func inform(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, details: String) {
        let dialog = make(parent, title: title, details: details)
        adw_message_dialog_add_response(dialog, "close", tr("_Close"))
        adw_message_dialog_set_default_response(dialog, "close")
        adw_message_dialog_set_close_response(dialog, "close")
        gtk_window_present(dialog.window)
    }

    /// Tells the person why a change to their albums did not happen (nothing when none failed).
    static func inform(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, problems: [CollectionProblem]) {
        guard !problems.isEmpty else { return }
        inform(parent, title: title, details: problems.map(\.message).joined(separator: "\n"))
    }

    /// Asks before something that cannot be undone; `confirmed` runs on the destructive answer.
    static func confirm(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, details: String, action: String,
                        confirmed: @escaping @MainActor () -> Void) {
        let dialog = make(parent, title: title, details: details)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(dialog, "confirm", action)
        adw_message_dialog_set_response_appearance(dialog, "confirm", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(dialog, "cancel")
        adw_message_dialog_set_close_response(dialog, "cancel")
        onSignal(dialog, "response", string: { response in
            if response == "confirm" { confirmed() }
        })
        gtk_window_present(dialog.window)
    }

    private static func make(_ parent: UnsafeMutablePointer<GtkWindow>, title: String, details: String) -> UnsafeMutablePointer<AdwMessageDialog> {
        let dialog = Texts.messageDialog(parent, heading: ShownText(title), body: ShownText(details))
        gtk_window_set_modal(dialog.window, 1)
        LiveObjects.track(dialog)
        return dialog
    }
}
