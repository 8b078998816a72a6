import CGtk
import Foundation
import PhotoCore

/// Keyboard Shortcuts (Ctrl+?, and the main menu): GTK's shortcuts window listing every
/// shortcut, grouped as the README's table is. Built from GtkBuilder text made here, so that
/// each title is the translated one.
@MainActor
enum ShortcutsWindow {
    /// A shortcut: GTK accelerators ("<Control>o", several separated by spaces) or a
    /// gesture's name, and what it does.
    private struct Shortcut {
        let keys: String
        let title: String
        var gesture: String?
    }

    private static var groups: [(title: String, shortcuts: [Shortcut])] {
        [
            (tr("General"), [
                Shortcut(keys: "<Control>o", title: tr("Open a folder")),
                Shortcut(keys: "<Control>l", title: tr("Open a location")),
                Shortcut(keys: "<Control>w", title: tr("Close the window")),
                Shortcut(keys: "<Control>q", title: tr("Quit")),
                Shortcut(keys: "F10", title: tr("Main menu")),
                Shortcut(keys: "<Control>z", title: tr("Undo")),
                Shortcut(keys: "<Control>question", title: tr("Keyboard shortcuts")),
            ]),
            (tr("Albums"), [
                Shortcut(keys: "<Control>Page_Down <Control>Page_Up", title: tr("Next, previous album")),
                Shortcut(keys: "<Alt>1...<Alt>9", title: tr("Show one of the first nine albums")),
            ]),
            (tr("Grid"), [
                Shortcut(keys: "Left Right Up Down", title: tr("Move between photos")),
                Shortcut(keys: "Page_Up Page_Down Home End", title: tr("Move by a screen, to the first or last photo")),
                Shortcut(keys: "Return", title: tr("Open the photo")),
                Shortcut(keys: "Menu <Shift>F10", title: tr("The photo's menu")),
                Shortcut(keys: "F2", title: tr("Rename the photo")),
            ]),
            (tr("Favourites and Stars"), [
                Shortcut(keys: "<Control>1...<Control>5", title: tr("Rate the photo one to five stars")),
                Shortcut(keys: "<Control>0", title: tr("Remove the rating")),
                Shortcut(keys: "<Control>period", title: tr("Add to or remove from Favourites")),
                Shortcut(keys: "<Control>t", title: tr("Edit Tags")),
                Shortcut(keys: "<Control>f", title: tr("Search names, tags, cameras and folders")),
                Shortcut(keys: "Escape", title: tr("Clear the search")),
            ]),
            (tr("Edit Mode"), [
                Shortcut(keys: "<Control>a", title: tr("Select all")),
                Shortcut(keys: "<Control><Shift>a", title: tr("Select none")),
                Shortcut(keys: "Escape", title: tr("Leave edit mode")),
                Shortcut(keys: "Delete", title: tr("Move to the trash")),
                Shortcut(keys: "<Shift>Delete", title: tr("Delete permanently")),
                Shortcut(keys: "<Control>e", title: tr("Export")),
                Shortcut(keys: "<Control>d", title: tr("Add to album")),
            ]),
            (tr("Viewer"), [
                Shortcut(keys: "Left Right", title: tr("Previous, next photo")),
                Shortcut(keys: "Home End", title: tr("First, last photo")),
                Shortcut(keys: "plus minus", title: tr("Zoom in, out")),
                Shortcut(keys: "0 1", title: tr("Best fit, actual size")),
                Shortcut(keys: "", title: tr("Zoom"), gesture: "gesture-pinch"),
                Shortcut(keys: "r <Shift>r", title: tr("Rotate")),
                Shortcut(keys: "<Control>s", title: tr("Save the rotation into the photo")),
                Shortcut(keys: "F2", title: tr("Rename the photo")),
                Shortcut(keys: "F11", title: tr("Fullscreen")),
                Shortcut(keys: "<Alt>Return", title: tr("Properties")),
                Shortcut(keys: "<Control>m", title: tr("Mark up the photo")),
                Shortcut(keys: "Escape <Alt>Left", title: tr("Back to the grid")),
            ]),
            // The drawing board's in two groups, and the tools' letters a few at a time: one
            // group of them all made the window taller, one row of eleven letters wider, than
            // a laptop's screen.
            (tr("Drawing Tools"), [
                Shortcut(keys: "p h", title: tr("Pen, highlighter")),
                Shortcut(keys: "l a", title: tr("Line, arrow")),
                Shortcut(keys: "r o", title: tr("Rectangle, ellipse")),
                Shortcut(keys: "t b", title: tr("Text, pixelate")),
                Shortcut(keys: "e v c", title: tr("Eraser, select, crop")),
                Shortcut(keys: "bracketleft bracketright", title: tr("Thinner, thicker")),
                Shortcut(keys: "plus minus 0 1", title: tr("Zoom in, out, fit, actual size")),
                Shortcut(keys: "space", title: tr("Hold to pan with the pointer")),
            ]),
            (tr("Drawing Board"), [
                Shortcut(keys: "<Control>z <Control><Shift>z", title: tr("Undo, redo")),
                Shortcut(keys: "<Control>Delete", title: tr("Clear the board")),
                Shortcut(keys: "Delete", title: tr("Delete the selected mark")),
                Shortcut(keys: "<Control>v", title: tr("Paste a photo")),
                Shortcut(keys: "Return Escape", title: tr("Fix, drop the floating photo")),
                Shortcut(keys: "<Control>s", title: tr("Save a marked-up copy")),
                Shortcut(keys: "<Control><Shift>s", title: tr("Save as")),
                Shortcut(keys: "<Control>c", title: tr("Copy the result")),
            ]),
        ]
    }

    /// Shows the window over `parent`.
    static func present(over parent: UnsafeMutablePointer<GtkWindow>?) {
        let builder = gtk_builder_new_from_string(builderText(), -1)!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return }
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
        LiveObjects.track(window)
        Texts.setTitle(window: window, ShownText(tr("Keyboard Shortcuts")))
        gtk_window_set_transient_for(window, parent)
        // One of the app's windows: its shortcuts (Ctrl+Q, Ctrl+W) work there too.
        if let parent, let application = gtk_window_get_application(parent) { gtk_window_set_application(window, application) }
        gtk_window_set_modal(window, 1)
        gtk_window_present(window)
    }

    /// The window as GtkBuilder text: one section, a group per part of the app.
    static func builderText() -> String {
        var text = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\"><child><object class=\"GtkShortcutsSection\">"
        text += "<property name=\"section-name\">shortcuts</property><property name=\"max-height\">12</property>"
        for group in groups {
            text += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escaped(group.title))</property>"
            for shortcut in group.shortcuts {
                text += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"title\">\(escaped(shortcut.title))</property>"
                if let gesture = shortcut.gesture {
                    text += "<property name=\"shortcut-type\">\(gesture)</property>"
                } else {
                    text += "<property name=\"accelerator\">\(escaped(shortcut.keys))</property>"
                }
                text += "</object></child>"
            }
            text += "</object></child>"
        }
        return text + "</object></child></object></interface>"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
