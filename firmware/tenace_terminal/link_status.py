"""The link's status report for the director's inventory (`tenace terminals`), sent after every accepted sign-in
and every STATUS_MS: the firmware, the battery, the last factory test, the link's counters and the radio's signal.

The app is not involved (its RAM is the screens'): the link reads the battery the board file gave both, and the
factory test's result from FACTORY_FILE, beside the journal (screens/factory.py writes it).
"""

from micropython import const

from tenace_terminal import VERSION

# At start, with the rest of the link: imported at the first report, in the middle of a session's heap, it would
# split the free space the screens' code needs in one piece (MicroPython's heap is never compacted).
from tenace_wire.field_messages import COUNT_MAX, Status, version_fields

STATUS_MS = const(300000)  # a status report this often while signed in
FACTORY_FILE = "factory.txt"  # the last factory test (screens/factory.py): "state checks round-trip-ms millivolts"


def status_report(battery, factory_path: str, session, transport) -> Status:
    """The STATUS to send: `battery` the app's (percent(), and millivolts() where the board has it) or None,
    `factory_path` the factory test's file, `session` the TerminalSession (its counters), `transport` the link's
    (rssi() where it tells the signal)."""
    mv = percent = 0
    if battery is not None:
        try:
            millivolts = getattr(battery, "millivolts", None)
            mv = millivolts() if millivolts is not None else 0
            percent = battery.percent()
        except Exception as e:  # a failed reading (ADC): reported as none
            print("wire_link: battery: %s" % e)
    factory = [0, 0]
    try:
        with open(factory_path) as f:
            words = f.read().split()
        factory = [int(words[0]), int(words[1])]
    except (OSError, ValueError, IndexError):
        pass  # never tested: "not run"
    major, minor, patch = version_fields(VERSION)
    sent, retried = session.traffic()
    rssi = getattr(transport, "rssi", None)
    level = rssi() if rssi is not None else 0
    return Status(major=major, minor=minor, patch=patch, battery_mv=min(max(mv, 0), 8191),
                  battery=min(max(percent, 0), 100), rssi=min(max(level, -127), 0),
                  sent=min(sent, COUNT_MAX), retried=min(retried, COUNT_MAX), factory=factory[0],
                  checks=factory[1])
