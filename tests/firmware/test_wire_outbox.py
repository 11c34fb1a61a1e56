"""Sequence numbers and the retransmission schedule (exponential back-off with jitter), with a fake clock."""

from tenace_wire.errors import WireError
from tenace_wire.session import Outbox, SeqCounter

from checks import raises


class FakeRandom:
    """random_bits(n) returning a fixed value, so the jitter is known."""

    def __init__(self, value):
        self.value = value

    def __call__(self, bits):
        return self.value & ((1 << bits) - 1)


def times_sent(outbox, until, step=10):
    sent = []
    now = 0
    while now <= until:
        out = []
        outbox.due(now, out)
        sent.extend([now] * len(out))
        now += step
    return sent


def test_back_off_doubles_to_the_cap_without_jitter():
    box = Outbox(FakeRandom(0), base_ms=250, max_ms=2000)
    box.put(1, b"frame", 0)
    assert times_sent(box, 10000) == [0, 250, 750, 1750, 3750, 5750, 7750, 9750]


def test_jitter_lengthens_each_delay_by_up_to_half():
    box = Outbox(FakeRandom(255), base_ms=256, max_ms=100000)
    assert [box.delay(a) for a in range(4)] == [383, 767, 1534, 3068]  # d + d*255//512
    box = Outbox(FakeRandom(128), base_ms=256, max_ms=1024)
    assert [box.delay(a) for a in (0, 1, 2, 3, 30)] == [320, 640, 1280, 1280, 1280]


def test_frames_go_only_on_acknowledgement():
    box = Outbox(FakeRandom(0), limit=3)
    for seq in (5, 6, 7):
        box.put(seq, b"f%d" % seq, 0)
    assert "busy" in raises(WireError, box.room, 1)
    assert box.acknowledge(6, 1) == 1 and box.acknowledge(6, 1) == 0
    out = []
    box.due(10000, out)
    assert out == [b"f5", b"f7"] and box.next_due() is not None
    assert box.acknowledge(5, 3) == 2 and len(box) == 0 and box.next_due() is None


def test_sequence_numbers_reserved_in_blocks():
    stored = []
    seqs = SeqCounter(1, stored.append, block=4)
    assert [seqs.take(1) for _ in range(3)] == [1, 2, 3]
    assert stored == [6]          # reserved through 5 before 1 was used
    assert seqs.take(3) == 4 and stored == [6, 11]
    rebooted = SeqCounter(stored[-1], stored.append, block=4)
    assert rebooted.take(1) == 11  # never one used before the reboot
    last = SeqCounter(65535)
    assert last.take(1) == 65535
    assert "seq_exhausted" in raises(WireError, last.take, 1)
