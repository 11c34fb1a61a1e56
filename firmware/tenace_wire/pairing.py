"""Pairing: the 6-digit code, the event key derived from it (and the club key), and HMAC-SHA256 as a function.

auth.py says how pairing works and what each way stops.

Imported only when a terminal pairs, and by the host: the terminal's steady state needs only auth.Tagger.
"""

import hashlib
import sys

from tenace_wire.auth import CLUB_ID_SIZE, CLUB_KEY_SIZE, NONCE_SIZE, padded_key

if sys.implementation.name != "micropython":
    import hmac as std_hmac  # pyright: ignore[reportMissingImports]  # CPython only
else:  # hmac_sha256_small: a port that freezes micropython-lib's hmac (webassembly) has one without copy()
    std_hmac = None  # type: ignore[assignment]

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable

KEY_SIZE = 16
CODE_DIGITS = 6
_PAIR_PREFIX = b"tenace-pair-v1:"
_CLUB_PREFIX = b"tenace-pair-v2:"
_CLUB_ID_PREFIX = b"tenace-club-id:"


def hmac_sha256_small(key: bytes, msg: "bytes | bytearray | memoryview") -> bytes:
    """RFC 2104 HMAC over hashlib.sha256 alone, for interpreters without an hmac module."""
    inner = hashlib.sha256(padded_key(key, 0x36))
    inner.update(msg)
    outer = hashlib.sha256(padded_key(key, 0x5C))
    outer.update(inner.digest())
    return outer.digest()


def hmac_sha256(key: bytes, msg: "bytes | bytearray | memoryview") -> bytes:
    """HMAC-SHA256: the standard library's where there is one, else hmac_sha256_small."""
    if std_hmac is not None:
        return std_hmac.digest(key, msg, "sha256")
    return hmac_sha256_small(key, msg)


def check_code(code: str) -> str:
    """The pairing code as keyed: exactly CODE_DIGITS ASCII digits (spaces ignored)."""
    if not isinstance(code, str):
        raise ValueError("the pairing code is text of %d digits" % CODE_DIGITS)
    digits = code.replace(" ", "")
    if len(digits) != CODE_DIGITS or not all("0" <= c <= "9" for c in digits):
        raise ValueError("the pairing code is %d digits, not %r" % (CODE_DIGITS, code))
    return digits


def event_key(code: str, nonce: bytes, club: "bytes | None" = None) -> bytes:
    """The per-event key both sides derive from the keyed pairing code and the host's event nonce; with the club
    key (written by `tenace flash`, never sent on the air) it is keyed by the club key, so that the code and the
    nonce alone, all an eavesdropper has, do not give it."""
    if len(nonce) != NONCE_SIZE:
        raise ValueError("the event nonce is %d bytes, not %d" % (NONCE_SIZE, len(nonce)))
    digits = check_code(code).encode()
    if club is None:
        return hmac_sha256(_PAIR_PREFIX + digits, nonce)[:KEY_SIZE]
    check_club_key(club)
    return hmac_sha256(club, _CLUB_PREFIX + digits + nonce)[:KEY_SIZE]


def check_club_key(club: bytes) -> bytes:
    if not isinstance(club, (bytes, bytearray)) or len(club) != CLUB_KEY_SIZE:
        raise ValueError("a club key is %d bytes" % CLUB_KEY_SIZE)
    return bytes(club)


def club_id(club: bytes) -> bytes:
    """The club key's public id (in HELLO): which key a terminal holds, not the key (a one-way hash of it)."""
    return hashlib.sha256(_CLUB_ID_PREFIX + check_club_key(club)).digest()[:CLUB_ID_SIZE]


def pairing_code(random_bits: "Callable[[int], int]") -> str:
    """A uniformly drawn 6-digit code; `random_bits(n)` returns n random bits (os.urandom-backed on the host)."""
    while True:
        # Rejection sampling: 2^20 > 10^6, and taking the value modulo 10^6 would favour low codes.
        value = random_bits(20)
        if value < 1000000:
            return "%06d" % value
