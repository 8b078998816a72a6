#!/usr/bin/python3
"""GNOME's thumbnail client (libgnome-desktop's GnomeDesktopThumbnailFactory), from the
command line, for the interoperability tests. Run it with XDG_CACHE_HOME set: GLib reads the
cache folder once per process, so each test runs the factory in a process of its own.

    gnome_thumbnail_factory.py lookup SIZE URI MTIME
    gnome_thumbnail_factory.py has-failed SIZE URI MTIME
    gnome_thumbnail_factory.py generate SIZE URI MIME_TYPE MTIME    (generate_thumbnail + save_thumbnail)

generate_thumbnail runs the desktop's thumbnailer inside bubblewrap, which cannot start in
some containers and chroots; there the pixels are made in this process as
gdk-pixbuf-thumbnailer makes them, and GNOME's factory still writes the cache file.

SIZE is normal, large, x-large or xx-large. Prints one JSON value on standard output.
"""
import json
import sys

import gi

gi.require_version("GnomeDesktop", "3.0")
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, Gio, GLib, GnomeDesktop  # noqa: E402

EDGES = {"normal": 128, "large": 256, "x-large": 512, "xx-large": 1024}

SIZES = {
    "normal": GnomeDesktop.DesktopThumbnailSize.NORMAL,
    "large": GnomeDesktop.DesktopThumbnailSize.LARGE,
    "x-large": GnomeDesktop.DesktopThumbnailSize.XLARGE,
    "xx-large": GnomeDesktop.DesktopThumbnailSize.XXLARGE,
}


def main(argv):
    command, size, uri = argv[1], argv[2], argv[3]
    factory = GnomeDesktop.DesktopThumbnailFactory.new(SIZES[size])
    if command == "lookup":
        result = factory.lookup(uri, int(argv[4]))
    elif command == "has-failed":
        result = factory.has_valid_failed_thumbnail(uri, int(argv[4]))
    elif command == "generate":
        mime_type, mtime = argv[4], int(argv[5])
        try:
            pixbuf = factory.generate_thumbnail(uri, mime_type)
        except GLib.Error as error:
            print(f"note: GNOME's sandboxed thumbnailer did not run ({error.message}); "
                  "making the pixels in-process", file=sys.stderr)
            path = Gio.File.new_for_uri(uri).get_path()
            edge = EDGES[size]
            pixbuf = GdkPixbuf.Pixbuf.new_from_file_at_scale(path, edge, edge, True).apply_embedded_orientation()
        factory.save_thumbnail(pixbuf, uri, mtime)
        result = factory.lookup(uri, mtime)
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
