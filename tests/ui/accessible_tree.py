"""Prints the accessible tree of the applications on the session bus in DBUS_SESSION_BUS_ADDRESS
as JSON, as a screen reader reads it over AT-SPI: for each object its role, name,
description, states and children. Run as its own process (AT-SPI binds to one bus per process).

    accessible_tree.py APP_NAME
"""

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

STATES = {"focused": Atspi.StateType.FOCUSED, "selected": Atspi.StateType.SELECTED,
          "showing": Atspi.StateType.SHOWING, "focusable": Atspi.StateType.FOCUSABLE}


def node(accessible, depth=0):
    try:
        states = accessible.get_state_set()
        entry = {"role": accessible.get_role_name(), "name": accessible.get_name() or "",
                 "description": accessible.get_description() or "",
                 "states": [name for name, state in STATES.items() if states.contains(state)],
                 "children": []}
        if depth < 60:
            for i in range(min(accessible.get_child_count(), 500)):
                child = accessible.get_child_at_index(i)
                if child is not None:
                    entry["children"].append(node(child, depth + 1))
        return entry
    except gi.repository.GLib.Error as error:
        return {"role": "error", "name": str(error), "description": "", "states": [], "children": []}


def main():
    wanted = sys.argv[1]
    desktop = Atspi.get_desktop(0)
    apps = [desktop.get_child_at_index(i) for i in range(desktop.get_child_count())]
    found = [node(a) for a in apps if a is not None and a.get_name() == wanted]
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
