import CGtk
import PhotoCore
import PhotoIO

/// The About window, with the decoding's confinement under System (what a bug report needs
/// to say: whether photos are decoded in confined processes here, and by what).
@MainActor
enum AboutDialog {
    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) {
        let dialog = gtk_about_dialog_new()!
        let about: OpaquePointer = dialog.cast()
        gtk_about_dialog_set_program_name(about, "Photo Browser")
        gtk_about_dialog_set_version(about, AppInfo.version)
        // The app's icon once installed; a generic image icon when run from the build tree.
        let icons = gtk_icon_theme_get_for_display(gtk_widget_get_display(dialog))
        gtk_about_dialog_set_logo_icon_name(about, gtk_icon_theme_has_icon(icons, Application.id) != 0 ? Application.id : "image-x-generic")
        gtk_about_dialog_set_comments(about, "Browse, view and sort the photos in your folders.")
        gtk_about_dialog_set_license_type(about, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_system_information(about, IsolatedDecoder.shared.statusReport)
        gtk_window_set_default_size(dialog.cast(), 640, -1)
        if let parent {
            gtk_window_set_transient_for(dialog.cast(), parent)
            gtk_window_set_modal(dialog.cast(), 1)
            gtk_window_set_destroy_with_parent(dialog.cast(), 1)
        }
        gtk_window_present(dialog.cast())
    }
}
