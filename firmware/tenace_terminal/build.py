"""The one way to build a terminal: its link over a transport, and the app over the link and the devices.

    app = build_terminal(transport, terminal, keypad, display, clock, storage, battery)
Called once at start by a board file (and by the simulators in place of one): the module then takes itself out
of sys.modules and of its package, so that once the caller's reference to the function is gone its code is
garbage, and the session's heap is the app's (on the unix port the code of a module is heap).
transport, terminal, storage, clock, random_bits and club are the WireLink's (wire_link.py); keypad, display,
clock, storage and battery the App's (app.py), the app's terminal_id being `name`, or "T<terminal>".
`link` a ready link in place of a WireLink (a simulator's stand-in: then transport is not used);
`link_battery` False: the link's status report gives no battery (a phone's, or a simulator's, is not the terminal's).
"""

import sys

from tenace_terminal.app import App


def build_terminal(transport, terminal, keypad, display, clock, storage, battery, name=None, random_bits=None,
                   club=None, compact_bytes=4096, link=None, link_battery=True):
    if link is None:
        from tenace_terminal import wire_link

        link = wire_link.WireLink(transport, terminal, storage, clock, random_bits,
                                  battery if link_battery else None, club=club)
    app = App(keypad, display, clock, link, storage, battery, name or "T" + str(terminal), compact_bytes)
    sys.modules.pop(__name__, None)
    package = sys.modules.get("tenace_terminal")
    if package is not None and hasattr(package, "build"):
        delattr(package, "build")
    return app
