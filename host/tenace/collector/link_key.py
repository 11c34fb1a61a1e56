"""The event's link key: the 6-digit pairing code, the event nonce and the key derived from both, made once."""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from tenace.store.link import keep_link_key, stored_link_key
from tenace_wire.auth import NONCE_SIZE
from tenace_wire.pairing import event_key, pairing_code


@dataclass(frozen=True)
class LinkKey:
    code: str  # six digits, keyed at each terminal
    nonce: bytes  # sent in PAIR_OFFER
    key: bytes  # HMAC key of every frame under this event

    @property
    def director_pin(self) -> int:
        """The event's PIN for the terminals' director menu (0-9999) unless one is set: derived from the key, so
        the same for the whole event, across restarts, and different from another event's."""
        return int.from_bytes(hmac.new(self.key, b"tenace director pin", hashlib.sha256).digest()[:4], "big") % 10000

    @property
    def spaced_code(self) -> str:
        """The code as shown to people: "123 456"."""
        return f"{self.code[:3]} {self.code[3:]}"


def urandom_bits(n: int) -> int:
    """n random bits from the operating system's generator."""
    return int.from_bytes(os.urandom((n + 7) // 8), "big") >> (-n % 8)


def link_key(conn: sqlite3.Connection, random_bits: Callable[[int], int] = urandom_bits,
             random_bytes: Callable[[int], bytes] = os.urandom) -> LinkKey:
    """The event's (code, nonce, key), created and committed on the first call; the same ever after."""
    stored = stored_link_key(conn)
    if stored is None:
        code = pairing_code(random_bits)
        nonce = random_bytes(NONCE_SIZE)
        stored = keep_link_key(conn, code, nonce, event_key(code, nonce))
    return LinkKey(*stored)
