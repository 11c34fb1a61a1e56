"""Long messages in fragments: reassembled out of order and with duplicates; a missing one leaves it incomplete."""

from tenace_wire.errors import WireError
from tenace_wire.fragments import FRAGMENT_DATA, Reassembler, fragment_count, fragment_header, split

from checks import raises

MESSAGE = bytes(range(200))  # 15 fragments
TEXT = 14


def test_split_sizes():
    parts = split(TEXT, MESSAGE)
    assert len(parts) == fragment_count(len(MESSAGE)) == 15
    assert all(len(p) <= 17 for p in parts) and len(parts[0]) == 3 + FRAGMENT_DATA
    assert fragment_count(17) == 1 and fragment_count(18) == 2
    raises(WireError, split, TEXT, bytes(255 * FRAGMENT_DATA + 1))


def test_reassembly_reordered_and_duplicated():
    parts = split(TEXT, MESSAGE)
    first = 100
    order = [14, 3, 3, 0, 7, 1, 2, 5, 4, 6, 13, 8, 12, 9, 11, 0, 10]  # every index, two duplicated
    r = Reassembler()
    done = None
    for i in order:
        got = r.add(9, first + i, parts[i])
        if got is not None:
            assert done is None, "completed twice"
            done = got
    assert done == (TEXT, first, 15, MESSAGE)
    assert r.incomplete() == 0


def test_missing_fragment_is_incomplete_never_wrong():
    parts = split(TEXT, MESSAGE)
    r = Reassembler()
    for i in range(15):
        if i != 6:
            assert r.add(9, 50 + i, parts[i]) is None
    assert r.incomplete() == 1
    # The same fragments at other sequence numbers are another message, which does not fill the gap.
    assert r.add(9, 70 + 6, parts[6]) is None
    assert r.add(9, 50 + 6, parts[6]) == (TEXT, 50, 15, MESSAGE)


def test_inconsistent_fragments_refused():
    parts = split(TEXT, MESSAGE)
    assert "malformed" in raises(WireError, fragment_header, parts[0][:3], 1)
    assert "malformed" in raises(WireError, fragment_header, b"\x0e\x05\x05" + b"x", 10)  # index >= count
    assert "malformed" in raises(WireError, fragment_header, parts[1][:-1], 10)  # short, not the last
    assert "malformed" in raises(WireError, fragment_header, parts[3], 2)  # would start before seq 1
    r = Reassembler()
    r.add(1, 10, parts[0])
    other = bytes((13,)) + parts[1][1:]  # another type for the same message
    assert "disagree" in raises(WireError, r.add, 1, 11, other)


def test_oldest_incomplete_message_is_dropped():
    parts = split(TEXT, MESSAGE)
    r = Reassembler(2)
    for first in (10, 30, 50):
        r.add(1, first, parts[0])
    assert r.incomplete() == 2
    for i in range(1, 15):
        assert r.add(1, 10 + i, parts[i]) is None  # message 10 was dropped: never completes
