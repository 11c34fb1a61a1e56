"""The wire link's files on flash (its state, the round plans and hand records kept) and the status report.

The state file is one line, "key-in-hex-or-- limit section table", rewritten atomically (a temporary file renamed
over it) and only when one of them changes: with a key and a table it lets a rebooted terminal sign in again by
itself. The plans and hand records files are a line per message, "<round or board> <payload in hex>"; the last
line of a number wins, and a line torn by a power cut is skipped (the host sends it again at the next sign-in).
The status report reads the last factory test (FACTORY_FILE, beside them; screens/factory.py writes it).
One module for all of them: each module a MicroPython terminal loads costs it heap.
"""

import os

from micropython import const

from tenace_terminal import VERSION
from tenace_terminal.journal import sync
from tenace_wire.errors import WireError

# At start, with the rest of the link: imported at the first report, in the middle of a session's heap, it would
# split the free space the screens' code needs in one piece (MicroPython's heap is never compacted).
from tenace_wire.field_messages import COUNT_MAX, Status, version_fields
from tenace_wire.messages import decode_message

STATE_FILE = "link.state"
PLANS_FILE = "link.plans"
DEALS_FILE = "link.deals"  # the hand records the host sent, a line each: board, payload in hex
FACTORY_FILE = "factory.txt"  # the last factory test (screens/factory.py): "state checks round-trip-ms millivolts"
_PLANS_BYTES = const(4096)  # the plans file is begun anew at a sign-in once it is this long (all come again)


def read_state(path: str) -> list:
    """[key or None, limit, section, table] from the state file at `path`; [None, 1, -1, 0] without one (a new
    terminal: pair and sign in afresh), and a torn one, which the atomic rename rules out, read as far as it goes."""
    state = [None, 1, -1, 0]
    try:
        with open(path) as f:
            words = f.read().split()
        state[0] = bytes.fromhex(words[0]) if words[0] != "-" else None
        state[1] = int(words[1])
        state[2] = int(words[2])
        state[3] = int(words[3])
    except (OSError, ValueError, IndexError):
        pass
    return state


def write_state(path: str, key, limit: int, section: int, table: int) -> None:
    """Replace the state file at `path` in one step: the old one stays whole until the new one is."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%s %d %d %d\n" % (key.hex() if key else "-", limit, section, table))
        sync(f)
    os.rename(tmp, path)  # littlefs and POSIX both replace the old file in one step


def begin_anew(plans: str, deals: str, table_changed: bool) -> None:
    """Empty the plans file and the hand records' for another table, or when the plans' has grown long: the host
    sends them all again."""
    try:
        if not table_changed and os.stat(plans)[6] < _PLANS_BYTES:
            return
    except OSError:
        return  # none yet
    for path in (plans, deals):
        with open(path, "w"):
            pass


def keep(path: str, number: int, message) -> None:
    """Append `message` (a wire message) as round or board `number`'s to the file at `path`, synced."""
    with open(path, "a") as f:
        f.write("%d %s\n" % (number, message.encode().hex()))
        sync(f)


def kept_all(path: str, ftype: int, numbers) -> list:
    """The messages of type `ftype` kept in `path` for each round or board of `numbers` (the last one the host sent;
    None where there is none), in one pass over the file: a pass per board would litter a small heap with the
    lines' strings."""
    keys = [str(n) for n in numbers]
    texts = {}  # the last line of each wins
    try:
        with open(path) as f:
            for line in f:
                space = line.find(" ")
                if space > 0 and line[:space] in keys:
                    texts[line[:space]] = line[space + 1:].strip()
    except OSError:
        pass
    out = []
    for key in keys:
        text = texts.get(key)
        message = None
        if text is not None:
            try:
                message = decode_message(ftype, bytes.fromhex(text))
            except (ValueError, WireError):
                pass  # torn by a power cut: the host sends it again at the next sign-in
        out.append(message)
    return out


def status_report(battery, factory_path: str, session, transport) -> Status:
    """The STATUS for the director's inventory: the firmware, `battery` (the app's: percent(), and millivolts()
    where the board has it; or None), the factory test kept at `factory_path`, the counters of `session` (the
    TerminalSession) and the signal `transport` tells (rssi(), where it has one)."""
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
