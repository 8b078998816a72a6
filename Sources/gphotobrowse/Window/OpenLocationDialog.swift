import CGtk
import Foundation
import PhotoCore

/// "Open Location…" (Ctrl+L): an address to open in the window, typed or pasted: a web
/// album's list or a photo on the web (https://…), a folder on a server (sftp://, smb://,
/// dav://…), or a path on this computer.
@MainActor
enum OpenLocationDialog {
    static func ask(parent: UnsafeMutablePointer<GtkWindow>, _ chosen: @escaping @MainActor (String) -> Void) {
        let dialog = Texts.messageDialog(
            parent, heading: ShownText(tr("Open Location")),
            body: ShownText(tr("The address of photos on the web (a photo, a list of photos, a folder's page), or of a folder on a server or this computer.")))
        gtk_window_set_modal(dialog.window, 1)
        LiveObjects.track(dialog)
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(entry.cast(), "https://example.org/photos/")
        gtk_entry_set_input_purpose(entry.cast(), GTK_INPUT_PURPOSE_URL)
        gtk_entry_set_activates_default(entry.cast(), 1)
        gtk_widget_set_size_request(entry, 420, -1)
        adw_message_dialog_set_extra_child(dialog, entry)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(dialog, "open", tr("_Open"))
        adw_message_dialog_set_response_appearance(dialog, "open", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(dialog, "open")
        adw_message_dialog_set_close_response(dialog, "cancel")
        adw_message_dialog_set_response_enabled(dialog, "open", 0)
        onSignal(entry, "changed") {
            let text = gtk_editable_get_text(entry.cast()).map { String(cString: $0) } ?? ""
            adw_message_dialog_set_response_enabled(dialog, "open", address(of: text) == nil ? 0 : 1)
        }
        onSignal(dialog, "response", string: { response in
            guard response == "open" else { return }
            let text = gtk_editable_get_text(entry.cast()).map { String(cString: $0) } ?? ""
            if let uri = address(of: text) { chosen(uri) }
        })
        gtk_window_present(dialog.window)
        gtk_widget_grab_focus(entry)
    }

    /// The URI `text` names: itself when it has a scheme, a path (`/…`, `~/…`) as a file
    /// URI, anything else as a web address ("example.org/photos" → https://…).
    static func address(of text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isNewline) else { return nil }
        if trimmed.contains("://") {
            return g_uri_is_valid(trimmed, G_URI_FLAGS_PARSE_RELAXED, nil) != 0 ? trimmed : nil
        }
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("~") {
            let path = trimmed.hasPrefix("~") ? NSString(string: trimmed).expandingTildeInPath : trimmed
            return URL(fileURLWithPath: path).absoluteString
        }
        guard !trimmed.contains(" ") else { return nil }
        return "https://" + trimmed
    }
}
