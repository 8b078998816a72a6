import CGtk
import Foundation
import PhotoCore
import PhotoIO

/// Set as Background… (the photo's menu): the photo becomes the desktop's background, its
/// lock screen's, or both.
///
/// Through the desktop portal's Wallpaper interface where it runs
/// (`org.freedesktop.portal.Wallpaper.SetWallpaperFile`, the file open for reading handed
/// over with the call, and `set-on`), as sandboxed apps and Loupe do; else through GNOME's
/// background settings, where their schemas are installed (`org.gnome.desktop.background`
/// `picture-uri` and `picture-uri-dark`, `org.gnome.desktop.screensaver` `picture-uri`);
/// else it says it cannot be done. The desktop is given a file on this computer: a web
/// photo or one on another machine is copied first, as Eye of GNOME does, into
/// `$XDG_DATA_HOME/gphotobrowse/backgrounds/`, under a name not taken.
@MainActor
enum SetAsBackground {
    /// Where the photo goes: the portal's `set-on` values.
    enum Place: String, Sendable {
        case background, lockscreen, both
    }

    /// Asks where the photo goes, then sets it there.
    static func ask(for photo: Photo, parent: UnsafeMutablePointer<GtkWindow>, toasts: Toasts) {
        guard !photo.isNotFound else { return }
        let dialog = Texts.messageDialog(
            parent, heading: ShownText(tr("Set as Background?")),
            body: ShownText(tr("“%s” becomes the picture behind your desktop, on the lock screen, or both.", OutsideText(photo.displayName))))
        gtk_window_set_modal(dialog.window, 1)
        LiveObjects.track(dialog)
        adw_message_dialog_add_response(dialog, "cancel", tr("_Cancel"))
        adw_message_dialog_add_response(dialog, Place.lockscreen.rawValue, tr("_Lock Screen"))
        adw_message_dialog_add_response(dialog, Place.both.rawValue, tr("B_oth"))
        adw_message_dialog_add_response(dialog, Place.background.rawValue, tr("_Background"))
        adw_message_dialog_set_response_appearance(dialog, Place.background.rawValue, ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(dialog, Place.background.rawValue)
        adw_message_dialog_set_close_response(dialog, "cancel")
        onSignal(dialog, "response", string: { [weak toasts] response in
            guard let place = Place(rawValue: response), let toasts else { return }
            set(photo, on: place, toasts: toasts)
        })
        gtk_window_present(dialog.window)
    }

    /// Sets `photo` on `place`, and says whether it worked.
    static func set(_ photo: Photo, on place: Place, toasts: Toasts) {
        let uri = photo.id, name = photo.displayName
        Thread.detachNewThread {
            let local = fileHere(for: uri).flatMap(openForReading)
            onMain { [weak toasts] in
                guard let toasts else {
                    if case .success(let file) = local { close(file.descriptor) }
                    return
                }
                switch local {
                case .failure(let failure): toasts.show(tr("The background was not set: %s", failure.message), seconds: 10)
                case .success(let file): throughPortal(file.uri, descriptor: file.descriptor, on: place, name: name, toasts: toasts)
                }
            }
        }
    }

    private static func said(_ place: Place, _ name: String) -> String {
        switch place {
        case .background: tr("“%s” is the background now", name)
        case .lockscreen: tr("“%s” is on the lock screen now", name)
        case .both: tr("“%s” is the background and on the lock screen now", name)
        }
    }

    /// The photo as a file on this computer: itself, or a copy in the backgrounds folder.
    /// Blocking: on a worker.
    nonisolated private static func fileHere(for uri: String) -> Result<String, FileOperationFailure> {
        let file = g_file_new_for_uri(uri)
        let isLocal = !WebAddress.isWebAddress(uri) && g_file_is_native(file) != 0
        file?.unref()
        if isLocal { return .success(uri) }
        let folder = String(cString: g_get_user_data_dir()) + "/gphotobrowse/backgrounds"
        guard g_mkdir_with_parents(folder, 0o700) == 0 else {
            return .failure(FileOperationFailure(.noFolder, tr("The folder “%s” could not be made.", folder)))
        }
        let report = PhotoExport.export([uri], to: URL(fileURLWithPath: folder, isDirectory: true).absoluteString, cancellation: CancellationFlag())
        guard let result = report.results.first else { return .failure(FileOperationFailure(.other, tr("The photo could not be copied."))) }
        return result.outcome
    }

    /// The local file at `uri` open for reading, for the portal. Blocking: on a worker.
    nonisolated private static func openForReading(_ uri: String) -> Result<(uri: String, descriptor: Int32), FileOperationFailure> {
        guard let path = g_filename_from_uri(uri, nil, nil) else {
            return .failure(FileOperationFailure(.other, tr("The photo could not be copied.")))
        }
        defer { g_free(path) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(FileOperationFailure(.other, String(cString: strerror(errno))))
        }
        return .success((uri, descriptor))
    }

    // MARK: The desktop portal

    /// Hands the file (`descriptor`, which this takes over) to the desktop portal; where
    /// it does not run (no such service, or no Wallpaper interface), GNOME's settings.
    private static func throughPortal(_ uri: String, descriptor: Int32, on place: Place, name: String, toasts: Toasts) {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            close(descriptor)
            return throughSettings(uri, on: place, name: name, toasts: toasts)
        }
        let portal = "org.freedesktop.portal.Desktop"
        // The request's object path is known before the call (its handle token), so that
        // its Response cannot come before we listen.
        let token = "gphotobrowse\(UInt32.random(in: 1...UInt32.max))"
        let sender = String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst().replacingOccurrences(of: ".", with: "_")
        var path = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        var subscription: UInt32 = 0
        let answered = { @MainActor [weak toasts] (parameters: OpaquePointer?) in
            g_dbus_connection_signal_unsubscribe(bus, subscription)
            subscription = 0
            bus.unref()
            let code = parameters.flatMap { g_variant_get_child_value($0, 0) }
            let response = code.map { g_variant_get_uint32($0) } ?? 2
            if let code { g_variant_unref(code) }
            switch response {
            case 0:
                Trace.milestone("background-set-portal")
                toasts?.show(said(place, name))
            case 1: break  // the person cancelled in the desktop's own dialog
            default: toasts?.show(tr("The desktop did not set the background."), seconds: 10)
            }
        }
        subscription = subscribeDBus(bus, sender: portal, interface: "org.freedesktop.portal.Request", member: "Response", path: path, answered)

        let entryType = g_variant_type_new("{sv}")
        var entries: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string("set-on"), g_variant_new_variant(g_variant_new_string(place.rawValue))),
            g_variant_new_dict_entry(g_variant_new_string("show-preview"), g_variant_new_variant(g_variant_new_boolean(0))),
            g_variant_new_dict_entry(g_variant_new_string("handle_token"), g_variant_new_variant(g_variant_new_string(token))),
        ]
        let options = g_variant_new_array(entryType, &entries, UInt(entries.count))
        g_variant_type_free(entryType)
        // The file goes with the message: handle 0 is its first descriptor.
        var arguments: [OpaquePointer?] = [g_variant_new_string(""), g_variant_new_handle(0), options]
        let parameters = g_variant_new_tuple(&arguments, UInt(arguments.count))
        callDBus(bus, destination: portal, path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.Wallpaper",
                 method: "SetWallpaperFile", parameters: parameters, fileDescriptor: descriptor) { [weak toasts] answer in
            switch answer {
            case .reply(let reply):
                // An older portal may answer on another path than the one asked for.
                guard let handle = g_variant_get_child_value(reply, 0) else { return }
                let given = String(cString: g_variant_get_string(handle, nil))
                g_variant_unref(handle)
                if given != path, subscription != 0 {
                    g_dbus_connection_signal_unsubscribe(bus, subscription)
                    path = given
                    subscription = subscribeDBus(bus, sender: portal, interface: "org.freedesktop.portal.Request",
                                                 member: "Response", path: path, answered)
                }
            case .failure(let errorName, let message):
                g_dbus_connection_signal_unsubscribe(bus, subscription)
                subscription = 0
                bus.unref()
                printError("the desktop portal did not take the background (\(errorName ?? "no error name"): \(message)); trying GNOME's settings")
                guard let toasts else { return }
                throughSettings(uri, on: place, name: name, toasts: toasts)
            }
        }
    }

    // MARK: GNOME's settings

    private static func throughSettings(_ uri: String, on place: Place, name: String, toasts: Toasts) {
        Thread.detachNewThread {
            let problem = writeSettings(uri, on: place)
            onMain { [weak toasts] in
                if let problem {
                    toasts?.show(problem, seconds: 10)
                } else {
                    Trace.milestone("background-set-settings")
                    toasts?.show(said(place, name))
                }
            }
        }
    }

    /// Writes the GNOME keys for `place`; nil when done, else what stood in the way.
    /// Blocking (the settings backend writes before `g_settings_sync` returns): on a worker.
    nonisolated private static func writeSettings(_ uri: String, on place: Place) -> String? {
        var keys: [(schema: String, key: String)] = []
        if place != .lockscreen {
            keys += [("org.gnome.desktop.background", "picture-uri"), ("org.gnome.desktop.background", "picture-uri-dark")]
        }
        if place != .background { keys.append(("org.gnome.desktop.screensaver", "picture-uri")) }
        guard let source = g_settings_schema_source_get_default() else { return cannot }
        var settings: [String: UnsafeMutablePointer<GSettings>] = [:]
        defer { settings.values.forEach { $0.unref() } }
        for (schemaID, key) in keys {
            guard let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return cannot }
            let hasKey = g_settings_schema_has_key(schema, key) != 0
            if settings[schemaID] == nil { settings[schemaID] = g_settings_new_full(schema, nil, nil) }
            g_settings_schema_unref(schema)
            // picture-uri-dark is GNOME 42's: an older desktop has one picture for both styles.
            guard hasKey else {
                if key == "picture-uri" { return cannot }
                continue
            }
            guard g_settings_set_string(settings[schemaID], key, uri) != 0 else {
                return tr("The background was not set: the desktop's setting “%s” cannot be changed.", key)
            }
        }
        g_settings_sync()
        return nil
    }

    nonisolated private static var cannot: String {
        tr("This desktop offers no way to set its background here: neither the desktop portal nor GNOME's background settings are available.")
    }
}
