"""The terminal's side of the field tools: its status report, the factory test's chord and result on flash.

Loaded for each call and let go after (App.field, WireLink's status): a report goes every few minutes, and its
code would otherwise hold RAM a small terminal needs for its screens.
"""

from tenace_terminal import VERSION

FACTORY_FILE = "factory.txt"  # the last factory test: "state checks round-trip-ms millivolts" (field_messages.py)


def factory_result(storage: str) -> list:
    """[state, checks, round-trip ms, millivolts] of the last factory test kept in `storage`; [0, 0, -1, 0] when
    it never ran."""
    try:
        with open(storage.rstrip("/") + "/" + FACTORY_FILE) as f:
            words = f.read().split()
        return [int(words[0]), int(words[1]), int(words[2]), int(words[3])]
    except (OSError, ValueError, IndexError):
        return [0, 0, -1, 0]


def keep_factory_result(storage: str, result: list) -> None:
    """Write the factory test's result whole or not at all (a new file, then renamed over the old); OSError."""
    import os

    path = storage.rstrip("/") + "/" + FACTORY_FILE
    with open(path + ".tmp", "w") as f:
        f.write("%d %d %d %d\n" % (result[0], result[1], result[2], result[3]))
    os.rename(path + ".tmp", path)


def chord_held(app) -> bool:
    """Whether the factory test's keys are held now (app.keypad.held(): a board's key matrix, whose board file has
    the layout module loaded already)."""
    from tenace_terminal.keypad_layout import FACTORY_CHORD

    down = app.keypad.held()
    return FACTORY_CHORD[0] in down and FACTORY_CHORD[1] in down


def send_status(app) -> None:
    """Hand the link a status report for the director's inventory (it goes only while signed in)."""
    app.status_at = app.clock.ticks_ms()
    battery = app.battery
    try:
        millivolts = getattr(battery, "millivolts", None)
        mv = millivolts() if millivolts is not None else 0
        percent = battery.percent()
    except Exception as e:  # a failed reading (ADC) must not stop the terminal
        app._report(e)
        return
    factory = factory_result(app.storage)
    app.link.send({"type": "status", "version": VERSION, "mv": mv, "percent": percent, "factory": factory[0],
                   "checks": factory[1]})


def status_message(link, message: dict):
    """The STATUS message for the app's status report, with the link's counters and the radio's signal."""
    from tenace_wire.field_messages import COUNT_MAX, Status, version_fields

    major, minor, patch = version_fields(message.get("version", ""))
    sent, retried = link.session.traffic()
    rssi = getattr(link.transport, "rssi", None)
    level = rssi() if rssi is not None else 0
    return Status(major=major, minor=minor, patch=patch, battery_mv=min(max(message.get("mv", 0), 0), 8191),
                  battery=min(max(message.get("percent", 0), 0), 100), rssi=min(max(level, -127), 0),
                  sent=min(sent, COUNT_MAX), retried=min(retried, COUNT_MAX), factory=message.get("factory", 0),
                  checks=message.get("checks", 0))
