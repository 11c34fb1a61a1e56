"""The link's copies on flash of the round plans and hand records the host sent: the table plays on without it.

Each file is a line per message, "<round or board> <payload in hex>"; the last line of a number wins, and a line
torn by a power cut is skipped (the host sends it again at the next sign-in). When the app asks for a round the
plans file holds, the link gives it from there at once: with the laptop out of reach the table plays on, and its
results go when the link is back; the hand records kept the same way let the lead be checked meanwhile.
"""

import os

from micropython import const

from tenace_terminal.journal import sync
from tenace_wire.errors import WireError
from tenace_wire.messages import decode_message

PLANS_FILE = "link.plans"
DEALS_FILE = "link.deals"  # the hand records the host sent, a line each: board, payload in hex
PLANS_BYTES = const(4096)  # the plans file is begun anew at a sign-in once it is this long (all come again)


def begin_anew(plans: str, deals: str, table_changed: bool) -> None:
    """Empty the plans file and the hand records' for another table, or when the plans' has grown long: the host
    sends them all again."""
    try:
        if not table_changed and os.stat(plans)[6] < PLANS_BYTES:
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


def kept(path: str, ftype: int, number: int):
    """The message of type `ftype` kept in `path` for round or board `number` (the last one the host sent),
    or None."""
    return kept_all(path, ftype, (number,))[0]


def kept_all(path: str, ftype: int, numbers) -> list:
    """The messages kept in `path` for each of `numbers` (None where there is none), in one pass over the file:
    a pass per board would litter a small heap with the lines' strings."""
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
