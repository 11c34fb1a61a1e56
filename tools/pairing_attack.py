"""An offline attack on a pairing heard on the air: the PAIR_OFFER and one tagged frame, then codes tried one by one.

What a prepared eavesdropper does (firmware/tenace_wire/auth.py, the threat model): the nonce is in the offer, in
clear; each guess of the code gives an event key, and the first frame the terminal tagged says whether the guess
was right. Shared by tests/host/test_club_key.py and tools/bench_pairing_attack.py (the full 10^6 codes, timed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from tenace.simulation.loopback import Channel
from tenace_wire.auth import Tagger
from tenace_wire.control import PairOffer
from tenace_wire.frame import decode_frame, frame_terminal
from tenace_wire.frame_types import CRC_SIZE, HELLO, PAIR_OFFER, SIGN_IN, TAG_SIZE
from tenace_wire.messages import decode_message
from tenace_wire.pairing import event_key

Derive = Callable[[str, bytes], bytes]  # (code, nonce) -> event key


@dataclass
class RecordingChannel(Channel):
    """A channel that also keeps every frame put on the air, both ways: the eavesdropper's recording."""

    heard: list[bytes] = field(default_factory=list)

    def up(self, frames: Iterable[bytes]) -> list[bytes]:
        frames = list(frames)
        self.heard.extend(frames)
        return super().up(frames)

    def down(self, frames: Iterable[bytes]) -> list[bytes]:
        frames = list(frames)
        self.heard.extend(frames)
        return super().down(frames)


@dataclass(frozen=True)
class Recording:
    """What the eavesdropper kept of one terminal's pairing: the offer (the nonce) and its first tagged frame."""

    nonce: bytes
    signed: bytes  # the terminal's SIGN_IN frame, tagged under the event key
    club_id: bytes  # what its HELLO said (empty: no club key)


def recording_of(heard: list[bytes], terminal: int) -> Recording:
    """The pairing of `terminal` in a recording of the air (the first of each frame it needs)."""
    mine = [f for f in heard if frame_terminal(f) == terminal]
    types = [f[0] & 0x1F for f in mine]
    hello = decode_message(HELLO, decode_frame(mine[types.index(HELLO)], Tagger(b"any"), False).payload)
    offer = decode_message(PAIR_OFFER, decode_frame(mine[types.index(PAIR_OFFER)], Tagger(b"any"), True).payload)
    assert isinstance(offer, PairOffer)
    return Recording(offer.nonce, mine[types.index(SIGN_IN)], getattr(hello, "club", b""))


def matching_codes(recording: Recording, codes: Iterable[int], derive: Derive) -> Iterator[str]:
    """Every code (of `codes`, as numbers) whose derived event key verifies the recorded frame's tag."""
    frame = recording.signed
    end = len(frame) - CRC_SIZE - TAG_SIZE
    signed, tag = frame[:end], frame[end:end + TAG_SIZE]
    nonce = recording.nonce
    for n in codes:
        code = "%06d" % n
        if Tagger(derive(code, nonce)).verify(signed, tag):
            yield code


def find_code(recording: Recording, codes: Iterable[int], derive: Derive) -> str | None:
    """The first code whose derived event key verifies the recorded frame's tag, or None."""
    return next(matching_codes(recording, codes, derive), None)


def code_alone(code: str, nonce: bytes) -> bytes:
    """v1: all an eavesdropper needs is the code."""
    return event_key(code, nonce)


def with_club_key(club: bytes) -> Derive:
    """v2 under a given club key: the real one (what the terminal does) or a guess (what the eavesdropper can do)."""
    def derive(code: str, nonce: bytes) -> bytes:
        return event_key(code, nonce, club)
    return derive
