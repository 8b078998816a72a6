"""A stand-in for the desktop portal's Wallpaper interface, on a given session bus.

    wallpaper_portal.py BUS_ADDRESS RECORD.json [--response N | --silent]

Owns org.freedesktop.portal.Desktop and serves /org/freedesktop/portal/desktop with
org.freedesktop.portal.Wallpaper.SetWallpaperFile(s parent_window, h fd, a{sv} options) -> o
handle, as xdg-desktop-portal does: the file comes open with the message, and the handle
is the request object's path (/org/freedesktop/portal/desktop/request/SENDER/TOKEN, TOKEN
the caller's handle_token), on which org.freedesktop.portal.Request.Response(u response,
a{sv} results) follows the reply, sent to the caller. Each call is appended to RECORD.json
(a JSON list): its arguments, the path the descriptor is open on (as the portal finds it,
from /proc), the descriptor's access mode, and the file's bytes as read through it
(reopened through /proc, as the portal does: hex). With --silent, no Response ever follows
(a portal that hangs). Prints "ready"
once the name is owned. Sets no wallpaper.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import random
import sys
from pathlib import Path

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.Wallpaper">
    <method name="SetWallpaperFile">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="h" name="fd" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
PATH = "/org/freedesktop/portal/desktop"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("record", type=Path)
    parser.add_argument("--response", type=int, default=0)
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args()

    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(args.address, flags, None, None)
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
    loop = GLib.MainLoop()

    def call(connection, sender, path, interface, method, parameters, invocation):
        parent, handle_index, options = parameters.unpack()
        fds = invocation.get_message().get_unix_fd_list()
        record = {"sender": sender, "parent_window": parent, "options": options, "path": None}
        if fds is not None and 0 <= handle_index < fds.get_length():
            fd = fds.get(handle_index)  # a duplicate, ours to close
            try:
                record["path"] = os.readlink(f"/proc/self/fd/{fd}")
                record["writable"] = (fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE) != os.O_RDONLY
                # Read as xdg-desktop-portal reads it: reopened through /proc, which works for a
                # descriptor that only names the file (O_PATH, as libportal sends) too.
                with open(f"/proc/self/fd/{fd}", "rb") as file:
                    record["content"] = file.read().hex()
            finally:
                os.close(fd)
        calls = json.loads(args.record.read_text()) if args.record.exists() else []
        calls.append(record)
        args.record.write_text(json.dumps(calls))
        token = options.get("handle_token") or f"t{random.randrange(1 << 30)}"
        handle = f"{PATH}/request/{sender[1:].replace('.', '_')}/{token}"
        invocation.return_value(GLib.Variant("(o)", (handle,)))

        def respond():
            # To the caller alone, as xdg-desktop-portal sends it (libportal listens without a
            # match rule on the bus, so a broadcast would not reach it).
            connection.emit_signal(sender, handle, "org.freedesktop.portal.Request", "Response",
                                   GLib.Variant("(ua{sv})", (args.response, {})))
            return False

        if not args.silent:
            GLib.idle_add(respond)

    def get_property(connection, sender, path, interface, name):
        return GLib.Variant("u", 1) if name == "version" else None

    bus.register_object(PATH, node.interfaces[0], call, get_property, None)

    def acquired(connection, name):
        print("ready", flush=True)

    def lost(connection, name):
        print(f"could not own {name}", file=sys.stderr, flush=True)
        loop.quit()

    Gio.bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE, acquired, lost)
    loop.run()
    return 1


if __name__ == "__main__":
    sys.exit(main())
