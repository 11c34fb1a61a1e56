"""SLIP framing (tenace_wire.slip): round trips, escapes, pieces, noise; on CPython and MicroPython."""

from tenace_wire import slip


def test_round_trip_with_every_byte_value():
    frame = bytes(range(32)) + bytes((slip.END, slip.ESC, 0xFF))
    wire = slip.encode(frame)
    assert wire[0] == slip.END and wire[-1] == slip.END
    assert slip.END not in wire[1:-1]
    assert slip.Decoder(64).feed(wire) == [frame]


def test_fed_one_byte_at_a_time_and_several_packets():
    frames = [b"\x01\x02", bytes((slip.END,)) * 3, bytes((slip.ESC,)), b"tenace"]
    stream = b"".join([slip.encode(f) for f in frames])
    dec = slip.Decoder()
    got = []
    for i in range(len(stream)):
        got.extend(dec.feed(stream[i:i + 1]))
    assert got == frames
    assert dec.dropped == 0


def test_noise_before_a_packet_is_its_own_packet_and_resync_follows():
    dec = slip.Decoder()
    # Garbage with no END, then a proper packet: the leading END of encode() ends the garbage.
    got = dec.feed(b"\x55\x66" + slip.encode(b"ok"))
    assert got == [b"\x55\x66", b"ok"]


def test_too_long_and_bad_escape_are_dropped_whole():
    dec = slip.Decoder(8)
    got = dec.feed(slip.encode(bytes(9)) + slip.encode(b"ab"))
    assert got == [b"ab"]
    got = dec.feed(bytes((slip.END, 1, slip.ESC, 0x01, 2, slip.END)) + slip.encode(b"cd"))
    assert got == [b"cd"]
    assert dec.dropped == 2
