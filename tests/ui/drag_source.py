"""A second X client to drag files from: a GTK 4 window with a GtkDragSource.

    drag_source.py TITLE URI [URI…]

Shows a 240×240 window titled TITLE; dragging from anywhere in it offers the URIs as
text/uri-list (which GTK turns into a GdkFileList for a drop target). Prints `ready` once
mapped, then `drag-begin` and `drag-end` / `drag-cancel REASON` on stderr. Ctrl+Q quits.
"""

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

TITLE = sys.argv[1]
URI_LIST = "".join(uri + "\r\n" for uri in sys.argv[2:]).encode()


def say(*words):
    print(*words, file=sys.stderr, flush=True)


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title=TITLE)
    window.set_default_size(240, 240)
    label = Gtk.Label(label="drag from here")
    label.set_hexpand(True)
    label.set_vexpand(True)
    window.set_child(label)

    source = Gtk.DragSource()
    source.set_actions(Gdk.DragAction.COPY)
    source.connect("prepare", lambda s, x, y: Gdk.ContentProvider.new_for_bytes(
        "text/uri-list", GLib.Bytes.new(URI_LIST)))
    source.connect("drag-begin", lambda s, drag: say("drag-begin"))
    source.connect("drag-end", lambda s, drag, delete: say("drag-end"))

    def cancelled(s, drag, reason):
        say("drag-cancel", reason.value_nick)
        return False

    source.connect("drag-cancel", cancelled)
    label.add_controller(source)
    def key_pressed(controller, keyval, keycode, state):
        if keyval in (Gdk.KEY_q, Gdk.KEY_Q) and state & Gdk.ModifierType.CONTROL_MASK:
            app.quit()
            return True
        return False

    keys = Gtk.EventControllerKey()
    keys.connect("key-pressed", key_pressed)
    window.add_controller(keys)
    window.connect("map", lambda w: say("ready"))
    window.present()


app = Gtk.Application()
app.connect("activate", activate)
sys.exit(app.run([]))
