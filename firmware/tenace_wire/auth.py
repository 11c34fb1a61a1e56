"""Authentication: HMAC-SHA256, the truncated tag on every frame, and the event key from the pairing code.

How a terminal gets the key (pairing). The director's laptop opens an event with a random 8-byte
event nonce and shows a 6-digit pairing code (`pairing_code`). A terminal that has no key sends an
unauthenticated HELLO; the host answers with an unauthenticated PAIR_OFFER carrying the event
nonce; the person at the table keys the code shown on the laptop; both sides derive the event key
(pairing.py: `event_key`) one of two ways:
- with the club key (v2). The laptop makes the club key once (128 random bits, tenace.club_key)
  and `tenace flash` writes it over the USB cable into the terminal's settings file; it never goes
  on the air. Such a terminal's HELLO carries the key's id (`club_id`: 4 bytes of a hash of it, so
  the host knows which way to derive), and
      event key = HMAC-SHA256(key = club key, msg = b"tenace-pair-v2:" + code + event nonce)[:16]
- with the code alone (v1): a terminal without a club key (a borrowed unit, the browser's spare
  terminal), whose HELLO carries no id:
      event key = HMAC-SHA256(key = b"tenace-pair-v1:" + code, msg = event nonce)[:16]
From then on every frame carries HMAC-SHA256(event key, header + payload) truncated to 8 bytes
(`Tagger`), and the terminal's SIGN_IN, tagged with that key, proves to the host that the terminal
knows the code (and, v2, holds the club key). The terminal keeps the key in its journal, so a reboot
needs no new pairing. The two pairing frames use a fixed public key (`PUBLIC_KEY`): they carry
nothing secret and grant nothing; a forged offer can only make that terminal's sign-in fail. The
host keeps per terminal which way it paired (the event file) and checks its frames under that way's
key only; a terminal that paired with the club key is never offered a v1 pairing again (a forged
HELLO without the id cannot downgrade it), and a HELLO with another club key's id gets no offer.

Threat model, honestly:
- Stopped: noise and glitches (CRC-16 first, then the tag); frames from another event or another
  club's base station on the same channel (another key: bad tag); a person at a table who does
  not know the code and keys or forges results, or alters a frame in flight (64-bit tag: about
  one forgery in 1.8e19 tries, and each try costs a radio frame); replays (sequence numbers, the
  host's store, the terminal's replay window: see session.py); a frame of one terminal passed
  off as another's, or a host frame reflected back to the host (terminal id and the direction bit
  are inside the tag).
- Stopped with the club key (v2): a prepared eavesdropper. He records the PAIR_OFFER and tagged
  frames, but the event key also depends on 128 bits he never sees: trying the 10^6 codes gets him
  nothing (tests/host/test_club_key.py tries them). The code still binds a terminal to tonight's
  event: the club key alone, on a terminal left from last week, does not give tonight's key.
- Not stopped without it (v1): a prepared eavesdropper. The code has 10^6 values (about 20 bits).
  Whoever records the PAIR_OFFER and one tagged frame of a v1 terminal can try every code offline
  (about 10 s of one core in plain Python, tools/bench_pairing_attack.py; far less in optimised
  code), learn that event key and then forge frames as any terminal that paired with the code
  alone, or as a terminal id not yet heard at this event (the host cannot tell a new v1 terminal
  from him). Terminals that paired with the club key keep their own key: he cannot forge theirs.
  So an event where every terminal has the club key is only exposed through a terminal that pairs
  without it; the director sees which did (tenace problems).
- Not stopped: reading. Nothing is encrypted: anyone with a 2.4 GHz receiver can read results,
  travellers and rankings as they are sent (a traveller sent to a table can be read at the next
  table, so the host should send one only after the board is played everywhere it matters).
- Not stopped: jamming and flooding (denial of service; a forged HELLO with a terminal's id can make
  that terminal's next pairing fail), a stolen terminal (its flash holds the event key, and the
  club key: a club that loses a terminal makes a new club key and flashes the others again), a
  compromised laptop (it holds the club key file, readable by its user only).

Why a hand-written HMAC on MicroPython: the firmware has `hashlib.sha256` built in but no `hmac`
module. micropython-lib's current hmac is published only through mip's index, not PyPI; the PyPI
package micropython-hmac (3.4.2.post3, 2017) is an sdist without setup.py that pip refuses, and
it needs `warnings` and a hash object's `digest_size`/`block_size`, which MicroPython's sha256
lacks. RFC 2104 is ten lines over sha256, checked against the RFC 4231 vectors on both
interpreters (pairing.py has it; Tagger here inlines it with the padded keys computed once). On
CPython the standard library's `hmac` is used. MicroPython is told by sys.implementation, not by a
failed import: the WebAssembly port (the spare terminal page) freezes micropython-lib's hmac, whose
copy() raises NotImplementedError.
"""

import hashlib
import sys

from tenace_wire.frame_types import TAG_SIZE

if sys.implementation.name != "micropython":
    import hmac as std_hmac  # pyright: ignore[reportMissingImports]  # CPython only
else:  # hmac_sha256_small: a port that freezes micropython-lib's hmac (webassembly) has one without copy()
    std_hmac = None  # type: ignore[assignment]

NONCE_SIZE = 8
CLUB_KEY_SIZE = 16  # 128 random bits, made once by the director's laptop
CLUB_ID_SIZE = 4  # the club key's id in HELLO (pairing.club_id)
_BLOCK = 64  # SHA-256 block size in bytes
# The key of the two unauthenticated pairing frames (HELLO, PAIR_OFFER): public by design.
PUBLIC_KEY = b"tenace-public-v1"


def padded_key(key: bytes, xor: int) -> bytes:
    """RFC 2104's K XOR ipad / K XOR opad: the key (hashed when longer than a block), zero-padded, xored."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    out = bytearray(_BLOCK)
    for i in range(_BLOCK):
        out[i] = (key[i] if i < len(key) else 0) ^ xor
    return bytes(out)


def same_bytes(a: "bytes | bytearray | memoryview", b: "bytes | bytearray | memoryview") -> bool:
    """Constant-time comparison, so the time to refuse a tag does not tell how much of it was right."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= a[i] ^ b[i]
    return diff == 0


class Tagger:
    """Computes and checks the truncated HMAC-SHA256 tag of frames under one key."""

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, (bytes, bytearray)) or not key:
            raise ValueError("an authentication key is a non-empty bytes value")
        self.key = bytes(key)
        if std_hmac is not None:
            # The keyed state is computed once; each tag copies it (CPython's hmac supports copy()).
            self._mac = std_hmac.new(self.key, digestmod="sha256")
        else:
            # MicroPython's sha256 has no copy(): keep the two padded key blocks instead.
            self._ipad = padded_key(self.key, 0x36)
            self._opad = padded_key(self.key, 0x5C)

    def tag(self, data: "bytes | bytearray | memoryview") -> bytes:
        """The first TAG_SIZE bytes of HMAC-SHA256(key, data)."""
        if std_hmac is not None:
            mac = self._mac.copy()
            mac.update(data)
            return mac.digest()[:TAG_SIZE]
        inner = hashlib.sha256(self._ipad)
        inner.update(data)
        outer = hashlib.sha256(self._opad)
        outer.update(inner.digest())
        return outer.digest()[:TAG_SIZE]

    def verify(self, data: "bytes | bytearray | memoryview", tag: "bytes | bytearray | memoryview") -> bool:
        return same_bytes(self.tag(data), tag)
