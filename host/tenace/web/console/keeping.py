"""The console's login kept beside the event file (FILE.director, mode 0600): the key that signs the sessions' cookies,
the password the director chose, login links made by `tenace serve --login-link`, and the sessions logged out.

Beside the event file, not in it: the event file is copied, mailed and published as the evening's record, and a
session key or a password hash has no place there. One small JSON file, rewritten in place under a lock (fcntl), so
that `tenace serve --login-link` and a running `tenace serve` can both change it."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenace.errors import UsageError

SUFFIX = ".director"


class Unkept(UsageError):
    """FILE.director cannot be made or opened (a folder one may not write to)."""

# A login link from --login-link is good for this long (or until it is used).
LINK_S = 24 * 3600.0
# A session's cookie is good for this long from its login, whatever the restarts: the logged-out list is kept as long.
SESSION_MAX_S = 7 * 24 * 3600.0
# scrypt's cost (RFC 7914's interactive figures): a stolen FILE.director's password stays slow to guess.
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def kept_beside(event: Path) -> Path:
    """Where the console's login of the event file `event` is kept."""
    return event.with_name(event.name + SUFFIX)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Kept:
    """FILE.director: read and changed under its lock, each time (a running serve sees a --login-link's link)."""

    path: Path

    @contextlib.contextmanager
    def _open(self) -> Iterator[dict[str, Any]]:
        """The file's contents, locked; what the block leaves in the dict is written back."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise Unkept(f"{self.path}: cannot keep the console's login there: {e.strerror or e}") from None
        with os.fdopen(fd, "r+", encoding="utf-8") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            os.fchmod(fd, 0o600)  # a file made by hand or copied with looser rights is not left readable by all
            text = file.read()
            try:
                data: dict[str, Any] = json.loads(text) if text.strip() else {}
                if not isinstance(data, dict):
                    raise ValueError("not an object")
            except ValueError:
                raise UsageError(f"{self.path}: damaged (delete it: a new key logs everybody out, and a new "
                                 "password is chosen at the next login)") from None
            before = json.dumps(data, sort_keys=True)
            if "key" not in data:
                data["key"] = secrets.token_hex(32)
            yield data
            after = json.dumps(data, sort_keys=True)
            if after != before:
                file.seek(0)
                file.truncate()
                file.write(after)
                file.flush()
                os.fsync(fd)

    def key(self) -> bytes:
        with self._open() as data:
            return bytes.fromhex(data["key"])

    def has_password(self) -> bool:
        with self._open() as data:
            return "password" in data

    def set_password(self, password: str) -> None:
        salt = secrets.token_bytes(16)
        hashed = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)
        with self._open() as data:
            data["password"] = {"salt": salt.hex(), "scrypt": hashed.hex()}

    def password_is(self, given: str) -> bool:
        with self._open() as data:
            stored = data.get("password")
        if not isinstance(stored, dict):
            return False
        hashed = hashlib.scrypt(given.encode(), salt=bytes.fromhex(stored["salt"]), **SCRYPT)
        return hmac.compare_digest(hashed.hex(), stored["scrypt"])

    def new_link(self, now: float | None = None) -> str:
        """A new one-time link's token (its digest kept, with its end): for this serve or the next."""
        token = secrets.token_urlsafe(24)
        now = time.time() if now is None else now
        with self._open() as data:
            links = {k: v for k, v in data.get("links", {}).items() if v > now}
            links[_digest(token)] = now + LINK_S
            data["links"] = links
        return token

    def link_is_good(self, token: str, spend: bool = False) -> bool:
        now = time.time()
        with self._open() as data:
            links = {k: v for k, v in data.get("links", {}).items() if v > now}
            good = any(hmac.compare_digest(k, _digest(token)) for k in links)
            if good and spend:
                del links[_digest(token)]
            data["links"] = links
        return good

    def log_out(self, session_id: str, issued: float) -> None:
        now = time.time()
        with self._open() as data:
            out = {k: v for k, v in data.get("out", {}).items() if v + SESSION_MAX_S > now}
            out[session_id] = issued
            data["out"] = out

    def is_out(self, session_id: str) -> bool:
        with self._open() as data:
            return session_id in data.get("out", {})

    def served_at(self, base: str) -> None:
        """The running serve's address: what --login-link prints its link on."""
        with self._open() as data:
            data["address"] = base

    def address(self) -> str | None:
        with self._open() as data:
            found = data.get("address")
        return found if isinstance(found, str) else None
