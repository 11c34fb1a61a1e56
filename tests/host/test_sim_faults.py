"""The simulator's virtual radio faults: each fault happens at its rate, and a forgery fails only its tag."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tenace.simulation.faults import Channel, FaultRates
from tenace_wire.auth import Tagger
from tenace_wire.errors import BAD_CRC, BAD_TAG, WireError
from tenace_wire.frame import decode_frame, encode_frame
from tenace_wire.frame_types import RESULT
from tenace_wire.table_messages import Result

KEY = bytes(range(16))
FRAME = encode_frame(Tagger(KEY), False, RESULT, 7, 40, Result(table=7, board=3, ns_pair=7, ew_pair=2, level=4,
                                                                strain=3, tricks=10).encode())
N = 20_000


def deliveries(rates: FaultRates) -> list[list[tuple[float, bytes]]]:
    channel = Channel(rates, random.Random(5))
    return [channel.transmit(FRAME) for _ in range(N)]


def test_a_perfect_channel_delivers_every_frame_once_unchanged_and_in_order() -> None:
    for copies in deliveries(FaultRates()):
        assert len(copies) == 1 and copies[0][1] == FRAME and copies[0][0] < 0.01


@pytest.mark.parametrize(("rates", "measure", "expected"), [
    (FaultRates(loss=0.2), lambda c: len(c) == 0, 0.2),
    (FaultRates(duplicate=0.05), lambda c: len(c) == 2, 0.05),
    (FaultRates(corrupt=0.02), lambda c: c[0][1] != FRAME, 0.02),
    (FaultRates(reorder=0.1), lambda c: c[0][0] >= 0.05, 0.1),
])
def test_each_fault_happens_at_its_rate(rates: FaultRates, measure: Callable[[list[tuple[float, bytes]]], bool],
                                        expected: float) -> None:
    share = sum(1 for c in deliveries(rates) if measure(c)) / N
    assert abs(share - expected) < 4 * (expected * (1 - expected) / N) ** 0.5 + 0.002


def test_a_corrupted_frame_fails_its_crc_and_a_forged_one_its_tag() -> None:
    channel = Channel(FaultRates(corrupt=1.0, forge=1.0), random.Random(2))
    for _ in range(200):
        damaged = channel.transmit(FRAME)[0][1]
        with pytest.raises(WireError) as refused:
            decode_frame(damaged, Tagger(KEY), False)
        assert refused.value.reason == BAD_CRC
        forged = channel.forgery(FRAME)
        assert forged is not None and forged != FRAME
        with pytest.raises(WireError) as refused:
            decode_frame(forged, Tagger(KEY), False)
        assert refused.value.reason == BAD_TAG


def test_rates_outside_zero_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="--loss is a probability"):
        FaultRates(loss=1.5)
    with pytest.raises(ValueError, match="--delay"):
        FaultRates(delay_ms=-1)
