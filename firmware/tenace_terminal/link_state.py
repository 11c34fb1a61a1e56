"""The link's state file: the event key, the sequence numbers reserved, the section and table last signed in to.

One line, "key-in-hex-or-- limit section table", rewritten atomically (a temporary file renamed over it), and only
when one of them changes. With a key and a table it lets a rebooted terminal sign in again by itself.
"""

import os

from tenace_terminal.journal import sync

STATE_FILE = "link.state"


def read_state(path: str) -> list:
    """[key or None, limit, section, table] from the state file at `path`: [None, 1, -1, 0] without one (a new
    terminal: pair and sign in afresh); a torn one, which the atomic rename rules out, is read as far as it goes."""
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
