import CGtk
import PhotoCore
import PhotoIO

/// The About window (AdwAboutWindow), with the decoding's confinement under Troubleshooting
/// → Debugging Information: what a bug report needs to say, whether photos are decoded in
/// confined processes here, and by what.
@MainActor
enum AboutWindow {
    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) {
        let window = adw_about_window_new()!
        let about: OpaquePointer = window.cast()
        LiveObjects.track(window)
        adw_about_window_set_application_name(about, tr("Photo Browser"))
        // The app's icon once installed; a generic image icon when run from the build tree.
        let icons = gtk_icon_theme_get_for_display(gtk_widget_get_display(window))
        adw_about_window_set_application_icon(about, gtk_icon_theme_has_icon(icons, Application.id) != 0 ? Application.id : "image-x-generic")
        adw_about_window_set_version(about, AppInfo.version)
        // TRANSLATORS: your names, one per line, as they should appear under Credits.
        adw_about_window_set_translator_credits(about, tr("translator-credits"))
        adw_about_window_set_comments(about, tr("Browse, view and sort the photos in your folders."))
        adw_about_window_set_license_type(about, GTK_LICENSE_GPL_3_0)
        adw_about_window_set_debug_info(about, IsolatedDecoder.shared.statusReport)
        if let parent {
            gtk_window_set_transient_for(window.cast(), parent)
            gtk_window_set_modal(window.cast(), 1)
            gtk_window_set_destroy_with_parent(window.cast(), 1)
        }
        gtk_window_present(window.cast())
    }
}
