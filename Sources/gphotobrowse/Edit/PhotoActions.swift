import Bridge
import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// What can be done with one photo or a few from their context menu (`ContextMenu`): open
/// with another application, copy to the clipboard, show in the file manager, save a copy.
/// Trash and export go through `EditController`.
@MainActor
enum PhotoActions {
    /// Files for drag and drop and the clipboard (GTK offers them as text/uri-list too).
    static func contentProvider(for uris: [String]) -> UnsafeMutablePointer<GdkContentProvider>? {
        var list: UnsafeMutablePointer<GSList>?
        for uri in uris.reversed() { list = g_slist_prepend(list, UnsafeMutableRawPointer(g_file_new_for_uri(uri))) }
        guard let fileList = gdk_file_list_new_from_list(list) else { return nil }
        g_slist_free_full(list) { g_object_unref($0) }
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(fileList))
        defer { g_value_unset(&value) }
        return gdk_content_provider_new_for_value(&value)
    }

    /// Puts the photos on the clipboard as files, for pasting in a file manager or a mail.
    static func copy(_ uris: [String], from widget: Widget) {
        guard let provider = contentProvider(for: uris) else { return }
        gdk_clipboard_set_content(gtk_widget_get_clipboard(widget), provider)
        provider.unref()
    }

    /// Asks the file manager to show the photo selected in its folder (the FileManager1
    /// D-Bus interface, as Files and others implement it); failing that, opens the folder.
    static func showInFiles(_ uri: String) {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return openFolder(of: uri) }
        let uris = uri.withCString { pointer -> OpaquePointer? in
            var item: UnsafePointer<gchar>? = pointer
            return withUnsafePointer(to: &item) { g_variant_new_strv($0, 1) }
        }
        let parameters = g_variant_new_tuple([uris, g_variant_new_string("")], 2)
        let box = CallbackBox.retain(uri)
        g_dbus_connection_call(bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                               "org.freedesktop.FileManager1", "ShowItems", parameters, nil,
                               G_DBUS_CALL_FLAGS_NONE, 3000, nil, { source, result, data in
            let uri = CallbackBox.take(data!, as: String.self)
            var error: UnsafeMutablePointer<GError>?
            if let reply = g_dbus_connection_call_finish(source.map { OpaquePointer($0) }, result, &error) {
                g_variant_unref(reply)
            } else {
                if let error { g_error_free(error) }
                MainActor.assumeIsolated { PhotoActions.openFolder(of: uri) }
            }
        }, box)
        bus.unref()
    }

    static func openFolder(of uri: String) {
        let file = g_file_new_for_uri(uri)
        defer { file?.unref() }
        guard let parent = g_file_get_parent(file), let folder = g_file_get_uri(parent) else { return }
        g_app_info_launch_default_for_uri(folder, nil, nil)
        g_free(folder)
        parent.unref()
    }

    /// GTK's application chooser for the photo's type; launches the chosen application.
    static func openWith(_ uri: String, parent: UnsafeMutablePointer<GtkWindow>) {
        let file = g_file_new_for_uri(uri)
        let dialog = gtk_app_chooser_dialog_new(parent, GTK_DIALOG_MODAL, file)!
        LiveObjects.track(dialog)
        file?.unref()
        onSignal(dialog, "response", integer: { response in
            if response == GTK_RESPONSE_OK.rawValue, let app = gtk_app_chooser_get_app_info(dialog.cast()) {
                let target = g_file_new_for_uri(uri)
                let files = g_list_append(nil, UnsafeMutableRawPointer(target))
                g_app_info_launch(app, files, nil, nil)
                g_list_free(files)
                target?.unref()
                app.unref()
            }
            gtk_window_destroy(dialog.cast())
        })
        gtk_window_present(dialog.cast())
    }

    /// "Save a Copy…": asks where, then copies the photo byte for byte there, and says
    /// whether it worked.
    static func saveCopy(of photo: Photo, parent: UnsafeMutablePointer<GtkWindow>, toasts: Toasts, jobs: WindowJobs) {
        let chooser = gtk_file_chooser_native_new(tr("Save a Copy"), parent, GTK_FILE_CHOOSER_ACTION_SAVE, tr("_Save"), tr("_Cancel"))!
        // A web photo's file name is its address's last part (its title may be any words).
        gtk_file_chooser_set_current_name(chooser.cast(), SaveDestination.copyName(id: photo.id, displayName: photo.displayName))
        LiveObjects.track(chooser)
        onSignal(chooser, "response", integer: { response in
            defer { gtk_native_dialog_destroy(chooser.cast()); chooser.unref() }
            guard response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser.cast()),
                  let target = g_file_get_uri(file) else { return }
            let targetURI = String(cString: target)
            g_free(target)
            file.unref()
            let source = photo.id
            let owner = MainThreadOwner(toasts)
            jobs.perform { flag in
                let result = PhotoExport.saveCopy(of: source, as: targetURI, cancellation: flag)
                owner.onMain { toasts in
                    switch result {
                    case .success(let saved): toasts.show(tr("Saved a copy as “%s”", OutsideText(EditController.name(saved))))
                    case .failure(let failure): toasts.show(tr("The copy was not saved: %s", failure.message), seconds: 10)
                    }
                }
            }
        })
        gtk_native_dialog_show(chooser.cast())
    }
}
