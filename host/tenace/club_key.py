"""The club key: 128 random bits made once by the director's laptop, kept in a per-user file, written to each terminal
by `tenace flash`; terminals that hold it pair so that a radio eavesdropper cannot find the event key (auth.py)."""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from tenace.errors import UsageError
from tenace_wire.auth import CLUB_KEY_SIZE
from tenace_wire.pairing import club_id

log = logging.getLogger(__name__)

ENV = "TENACE_CLUB_KEY"  # another file than the per-user one (a club laptop shared by directors, the tests)
FILE_NAME = "club.key"


def club_key_path() -> Path:
    """Where the club key is: $TENACE_CLUB_KEY, else club.key in the user's configuration folder
    (~/.config/tenace on Linux, ~/Library/Application Support/tenace on macOS, %LOCALAPPDATA%\\tenace on Windows)."""
    named = os.environ.get(ENV)
    if named:
        return Path(named).expanduser()
    return platformdirs.user_config_path("tenace") / FILE_NAME


@dataclass(frozen=True)
class ClubKey:
    path: Path
    key: bytes

    @property
    def id(self) -> str:
        """The key's public id, as terminals send it in HELLO (8 hex digits): names the key, does not reveal it."""
        return club_id(self.key).hex()


def read_club_key(path: Path | None = None) -> ClubKey | None:
    """The club key, or None when the laptop has none yet; UsageError (one line) when the file is not a club key."""
    path = path or club_key_path()
    try:
        text = path.read_text(encoding="ascii").strip()
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read the club key {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != CLUB_KEY_SIZE:
        raise UsageError(f"{path} is not a club key ({2 * CLUB_KEY_SIZE} hex digits); move it away and run "
                         f"tenace flash --club-key to make a new one (then flash every terminal again)")
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        log.warning("the club key %s can be read by other users of this computer: chmod 600 %s", path, path)
    return ClubKey(path, key)


def make_club_key(path: Path | None = None) -> tuple[ClubKey, bool]:
    """The club key, made (128 bits from the OS's generator, a file only its owner can read) when there is none;
    whether it was made now."""
    path = path or club_key_path()
    found = read_club_key(path)
    if found is not None:
        return found, False
    key = os.urandom(CLUB_KEY_SIZE)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # O_EXCL: never overwrite a key another process made meanwhile (the terminals flashed with it would be lost).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        found = read_club_key(path)
        if found is None:
            raise UsageError(f"the club key {path} vanished while it was being made: run the command again") from None
        return found, False
    except OSError as e:
        raise UsageError(f"cannot make the club key {path}: {e.strerror or e}") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
        f.flush()
        os.fsync(f.fileno())
    log.info("made the club key %s", path)
    return ClubKey(path, key), True
