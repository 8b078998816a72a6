"""A small GTK 4 window that proves the harness without gphotobrowse.

    probe_window.py TITLE

Four coloured quadrants (red, green / blue, yellow), 400×300. Prints `ready` once painted,
`click X Y` for a button-1 press, `key NAME` for each key, `drop PATH…` when files are
dropped on it (and takes the first one's base name as its title). Ctrl+Q quits with status 0.
"""

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gtk  # noqa: E402

TITLE = sys.argv[1] if len(sys.argv) > 1 else "Probe"
CSS = b"""
.q-red { background: #ff0000; }
.q-green { background: #00ff00; }
.q-blue { background: #0000ff; }
.q-yellow { background: #ffff00; }
"""


def say(*words):
    print(*words, file=sys.stderr, flush=True)


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title=TITLE)
    window.set_default_size(400, 300)
    css = Gtk.CssProvider()
    css.load_from_data(CSS)
    Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), css,
                                              Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    area = Gtk.Grid(column_homogeneous=True, row_homogeneous=True)
    for index, name in enumerate(("red", "green", "blue", "yellow")):
        box = Gtk.Box(hexpand=True, vexpand=True)
        box.add_css_class("q-" + name)
        area.attach(box, index % 2, index // 2, 1, 1)
    window.set_child(area)

    click = Gtk.GestureClick()
    click.connect("pressed", lambda gesture, n, x, y: say("click", round(x), round(y)))
    area.add_controller(click)

    def key_pressed(controller, keyval, keycode, state):
        say("key", Gdk.keyval_name(keyval))
        if keyval in (Gdk.KEY_q, Gdk.KEY_Q) and state & Gdk.ModifierType.CONTROL_MASK:
            app.quit()
            return True
        return False

    keys = Gtk.EventControllerKey()
    keys.connect("key-pressed", key_pressed)
    window.add_controller(keys)

    def dropped(target, value, x, y):
        files = value.get_files()
        say("drop", *[f.get_path() for f in files])
        if files:
            window.set_title(files[0].get_basename())
        return True

    drop = Gtk.DropTarget.new(Gdk.FileList, Gdk.DragAction.COPY)
    drop.connect("drop", dropped)
    window.add_controller(drop)

    told = []

    def after_paint(clock):
        if window.get_mapped() and not told:
            told.append(True)
            say("ready")

    window.connect("realize", lambda w: w.get_frame_clock().connect("after-paint", after_paint))
    window.present()


app = Gtk.Application()
app.connect("activate", activate)
sys.exit(app.run([]))
