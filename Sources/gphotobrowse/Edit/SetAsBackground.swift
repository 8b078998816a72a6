import Bridge
import CGtk
import CPortal
import Foundation
import PhotoCore
import PhotoIO

/// Set as Background… (the photo's menu): the photo becomes the desktop's background, its
/// lock screen's, or both. What is decided (what the portal's answer means, which of GNOME's
/// keys are set, what is said) is the core's `DesktopBackground`; this makes the calls.
///
/// Through the desktop portal's Wallpaper interface where it runs, with libportal
/// (`xdp_portal_set_wallpaper`: `SetWallpaperFile`, the file handed over with the call, and
/// `set-on`), as sandboxed apps and Loupe do; else through GNOME's
/// background settings, where their schemas are installed (`org.gnome.desktop.background`
/// `picture-uri` and `picture-uri-dark`, `org.gnome.desktop.screensaver` `picture-uri`);
/// else it says it cannot be done. The desktop is given a file on this computer: a web
/// photo or one on another machine is copied first, as Eye of GNOME does, into
/// `$XDG_DATA_HOME/gphotobrowse/backgrounds/`, under a name not taken.
@MainActor
enum SetAsBackground {
    typealias Place = DesktopBackground.Place

    /// Asks where the photo goes, then sets it there.
    static func ask(for photo: Photo, parent: UnsafeMutablePointer<GtkWindow>, toasts: Toasts, jobs: WindowJobs) {
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
            set(photo, on: place, toasts: toasts, jobs: jobs)
        })
        gtk_window_present(dialog.window)
    }

    /// Sets `photo` on `place`, and says whether it worked. The copy of a photo from
    /// elsewhere is a job of the window (`jobs`), stopped when it closes.
    static func set(_ photo: Photo, on place: Place, toasts: Toasts, jobs: WindowJobs) {
        let uri = photo.id, name = photo.displayName
        let owner = MainThreadOwner(toasts)
        jobs.perform { flag in
            let local = fileHere(for: uri, cancellation: flag)
            owner.onMain { toasts in
                switch local {
                case .failure(let failure): toasts.show(tr("The background was not set: %s", failure.message), seconds: 10)
                case .success(let fileURI): throughPortal(fileURI, on: place, name: name, toasts: toasts)
                }
            }
        }
    }

    /// The photo as a file on this computer: itself, or a copy in the backgrounds folder.
    /// Blocking: on a worker.
    nonisolated private static func fileHere(for uri: String, cancellation: CancellationFlag) -> Result<String, FileOperationFailure> {
        let file = g_file_new_for_uri(uri)
        let isLocal = !WebAddress.isWebAddress(uri) && g_file_is_native(file) != 0
        file?.unref()
        if isLocal { return .success(uri) }
        let folder = String(cString: g_get_user_data_dir()) + "/gphotobrowse/backgrounds"
        guard g_mkdir_with_parents(folder, 0o700) == 0 else {
            return .failure(FileOperationFailure(.noFolder, tr("The folder “%s” could not be made.", folder)))
        }
        let report = PhotoExport.export([uri], to: URL(fileURLWithPath: folder, isDirectory: true).absoluteString, cancellation: cancellation)
        guard let result = report.results.first else { return .failure(FileOperationFailure(.other, tr("The photo could not be copied."))) }
        return result.outcome
    }

    // MARK: The desktop portal

    /// How long the portal has to answer (past D-Bus's own 25 s for the call itself) before
    /// GNOME's settings are tried instead. With tracing on (tests),
    /// `GPHOTOBROWSE_PORTAL_PATIENCE=MS` sets it.
    private static var portalPatience: UInt32 {
        DesktopBackground.portalPatience(given: Trace.isEnabled ? ProcessInfo.processInfo.environment["GPHOTOBROWSE_PORTAL_PATIENCE"] : nil)
    }

    /// Hands the file to the desktop portal through libportal (`xdp_portal_set_wallpaper`,
    /// which opens it and sends it with the call; the window as the portal's parent); where
    /// no portal answers (no such service, no Wallpaper interface, no answer in time),
    /// GNOME's settings.
    private static func throughPortal(_ uri: String, on place: Place, name: String, toasts: Toasts) {
        // libportal needs a session bus (it takes it for granted).
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            return throughSettings(uri, on: place, name: name, toasts: toasts)
        }
        bus.unref()
        let request = PortalRequest(uri: uri, place: place, name: name, toasts: toasts)
        let portal = xdp_portal_new()
        let window = gtk_widget_get_root(toasts.root).map { UnsafeMutablePointer<GtkWindow>($0) }
        let parent = window.flatMap { xdp_parent_new_gtk($0) }  // copied by the call
        let flags: XdpWallpaperFlags = switch place {
        case .background: XDP_WALLPAPER_FLAG_BACKGROUND
        case .lockscreen: XDP_WALLPAPER_FLAG_LOCKSCREEN
        case .both: XdpWallpaperFlags(XDP_WALLPAPER_FLAG_BACKGROUND.rawValue | XDP_WALLPAPER_FLAG_LOCKSCREEN.rawValue)
        }
        xdp_portal_set_wallpaper(portal, parent, uri, flags, request.cancellable, { source, result, data in
            let request = CallbackBox.take(data!, as: PortalRequest.self)
            var error: UnsafeMutablePointer<GError>?
            let done = xdp_portal_set_wallpaper_finish(OpaquePointer(source), result, &error) != 0
            let cancelled = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 } ?? false
            let refused = error.map { g_error_matches($0, g_io_error_quark(), Int32(G_IO_ERROR_FAILED.rawValue)) != 0 } ?? false
            let message = error.map { String(cString: $0.pointee.message) } ?? ""
            if let error { g_error_free(error) }
            MainActor.assumeIsolated { request.answered(done: done, cancelled: cancelled, refused: refused, message: message) }
        }, CallbackBox.retain(request))
        if let parent { xdp_parent_free(parent) }
        g_object_unref(UnsafeMutableRawPointer(portal))
        request.waitForAnswer()
    }

    /// One call to the portal, until it answers or is given up.
    @MainActor
    private final class PortalRequest {
        let uri: String
        let place: Place
        let name: String
        weak var toasts: Toasts?
        private let cancelling = OwnedObject(taking: g_cancellable_new()!)
        var cancellable: UnsafeMutablePointer<GCancellable> { cancelling.pointer }
        private var timer: UInt32 = 0
        private var gaveUp = false

        init(uri: String, place: Place, name: String, toasts: Toasts) {
            self.uri = uri
            self.place = place
            self.name = name
            self.toasts = toasts
        }

        /// Gives the portal `portalPatience` to answer: then the call is cancelled (libportal
        /// stops listening for its answer) and GNOME's settings are tried.
        func waitForAnswer() {
            timer = after(milliseconds: portalPatience) { [self] in
                timer = 0
                gaveUp = true
                g_cancellable_cancel(cancellable)
            }
        }

        func answered(done: Bool, cancelled: Bool, refused: Bool, message: String) {
            if timer != 0 { g_source_remove(timer) }
            timer = 0
            guard let toasts else { return }
            let answer = DesktopBackground.PortalAnswer(done: done, cancelled: cancelled, refused: refused, gaveUp: gaveUp)
            switch DesktopBackground.outcome(of: answer) {
            case .set:
                Trace.milestone("background-set-portal")
                toasts.show(DesktopBackground.confirmation(place, name: name))
            case .cancelledByPerson:
                break
            case .refused:
                toasts.show(tr("The desktop did not set the background."), seconds: 10)
            case .useSettings:
                InfoLog.write("the desktop portal did not take the background (\(gaveUp ? "no answer" : message)); trying GNOME's settings")
                throughSettings(uri, on: place, name: name, toasts: toasts)
            }
        }
    }

    // MARK: GNOME's settings

    /// Sets GNOME's keys, on the main thread (GSettings writes through its backend without
    /// blocking, and is meant to be used from one thread).
    private static func throughSettings(_ uri: String, on place: Place, name: String, toasts: Toasts) {
        if let problem = writeSettings(uri, on: place) {
            toasts.show(problem, seconds: 10)
        } else {
            Trace.milestone("background-set-settings")
            toasts.show(DesktopBackground.confirmation(place, name: name))
        }
    }

    /// Writes the GNOME keys for `place`; nil when done, else what stood in the way.
    private static func writeSettings(_ uri: String, on place: Place) -> String? {
        guard let source = g_settings_schema_source_get_default() else { return cannot }
        var settings: [String: UnsafeMutablePointer<GSettings>] = [:]
        defer { settings.values.forEach { $0.unref() } }
        for (schemaID, key, isRequired) in DesktopBackground.settingsKeys(for: place).map({ ($0.schema, $0.key, $0.isRequired) }) {
            guard let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return cannot }
            let hasKey = g_settings_schema_has_key(schema, key) != 0
            if settings[schemaID] == nil { settings[schemaID] = g_settings_new_full(schema, nil, nil) }
            g_settings_schema_unref(schema)
            // picture-uri-dark is GNOME 42's: an older desktop has one picture for both styles.
            guard hasKey else {
                if isRequired { return cannot }
                continue
            }
            guard g_settings_set_string(settings[schemaID], key, uri) != 0 else {
                return tr("The background was not set: the desktop's setting “%s” cannot be changed.", key)
            }
        }
        return nil
    }

    private static var cannot: String {
        tr("This desktop offers no way to set its background here: neither the desktop portal nor GNOME's background settings are available.")
    }
}
