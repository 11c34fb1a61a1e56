"""Bit-packed message fields with range checks, and Message, the base of every message class.

A message's fixed part is a tuple of field names (FIELDS) and a flat tuple of (bits, lowest, highest)
per field (SPEC: flat, because on MicroPython a tuple of tuples costs twice the RAM), written most
significant bit first with no padding between fields; the last byte is padded with zero bits, and a decoder
refuses non-zero padding so that every message has exactly one encoding. A field whose lowest
value is negative is stored in two's complement. Decoding checks every field's range, then the
message's own cross-field rules (`check`), and refuses trailing bytes.
"""

from tenace_wire.errors import MALFORMED, WireError


def put_bits(buf: bytearray, pos: int, nbits: int, value: int) -> int:
    """Write the low `nbits` of `value` at bit `pos` of `buf` (zeroed), MSB first; return the next position."""
    while nbits:
        room = 8 - (pos & 7)
        take = room if room < nbits else nbits
        nbits -= take
        buf[pos >> 3] |= ((value >> nbits) & ((1 << take) - 1)) << (room - take)
        pos += take
    return pos


def get_bits(data: "bytes | bytearray | memoryview", pos: int, nbits: int) -> int:
    """Read `nbits` at bit `pos` of `data`, MSB first, as an unsigned number."""
    value = 0
    while nbits:
        room = 8 - (pos & 7)
        take = room if room < nbits else nbits
        nbits -= take
        value = (value << take) | ((data[pos >> 3] >> (room - take)) & ((1 << take) - 1))
        pos += take
    return value


def size_of(spec: "tuple[int, ...]") -> int:
    """Bytes taken by fields of these (bits, lowest, highest) triples, the bits rounded up."""
    bits = 0
    for i in range(0, len(spec), 3):
        bits += spec[i]
    return (bits + 7) >> 3


def encode_fields(obj: object, names: "tuple[str, ...]", spec: "tuple[int, ...]", buf: bytearray, start: int) -> None:
    """Write obj's attributes `names` into buf from byte `start`, refusing out-of-range values."""
    pos = start << 3
    for i in range(len(names)):
        value = getattr(obj, names[i])
        bits, low, high = spec[3 * i], spec[3 * i + 1], spec[3 * i + 2]
        if not isinstance(value, int) or not low <= value <= high:
            raise WireError(MALFORMED, "%s %r not %d..%d" % (names[i], value, low, high))
        pos = put_bits(buf, pos, bits, value)


def decode_fields(obj: object, names: "tuple[str, ...]", spec: "tuple[int, ...]",
                  data: "bytes | bytearray | memoryview", start: int) -> int:
    """Set obj's attributes `names` read at byte `start`; check ranges and padding; return the next byte."""
    pos = start << 3
    for i in range(len(names)):
        bits, low, high = spec[3 * i], spec[3 * i + 1], spec[3 * i + 2]
        value = get_bits(data, pos, bits)
        pos += bits
        if low < 0 and value >= 1 << (bits - 1):
            value -= 1 << bits
        if not low <= value <= high:
            raise WireError(MALFORMED, "%s %d not %d..%d" % (names[i], value, low, high))
        setattr(obj, names[i], value)
    if pos & 7:
        if get_bits(data, pos, 8 - (pos & 7)):
            raise WireError(MALFORMED, "padding bits not zero")
        pos += 8 - (pos & 7)
    return pos >> 3


class Message:
    """A message: TYPE (frame.py), FIELDS and SPEC (its fixed part), EXTRA (other attributes, for == and repr).

    A subclass with a variable part (a list, a text) overrides encode_tail and decode_tail.
    """

    TYPE = 0
    FIELDS: "tuple[str, ...]" = ()
    SPEC: "tuple[int, ...]" = ()
    EXTRA: "tuple[str, ...]" = ()

    def __init__(self, **values: object) -> None:
        """Fields by name; a field not given takes its lowest value, an EXTRA one its class default.

        One generic constructor rather than one per class: each explicit one costs RAM on MicroPython.
        """
        names = self.FIELDS
        for i in range(len(names)):
            setattr(self, names[i], values.pop(names[i], self.SPEC[3 * i + 1]))
        for name in values:
            if name not in self.EXTRA:
                raise TypeError("%s has no field %r" % (type(self).__name__, name))
            setattr(self, name, values[name])

    def check(self) -> None:
        """Cross-field rules; raise WireError(MALFORMED, ...) when they fail."""

    def encode_tail(self) -> bytes:
        return b""

    def decode_tail(self, tail: "bytes | memoryview") -> None:
        if len(tail):
            raise WireError(MALFORMED, "%d extra bytes" % len(tail))

    def encode(self) -> bytes:
        """The payload bytes of this message; WireError (a ValueError) when a field is out of range."""
        buf = bytearray(size_of(self.SPEC))
        encode_fields(self, self.FIELDS, self.SPEC, buf, 0)
        self.check()
        tail = self.encode_tail()
        return bytes(buf) + tail if tail else bytes(buf)

    def decode_payload(self, payload: "bytes | bytearray | memoryview") -> None:
        """Fill this message from payload bytes, checking every field."""
        size = size_of(self.SPEC)
        if len(payload) < size:
            raise WireError(MALFORMED, "%d bytes, type %d needs %d" % (len(payload), self.TYPE, size))
        decode_fields(self, self.FIELDS, self.SPEC, payload, 0)
        self.decode_tail(memoryview(payload)[size:])
        self.check()

    def values(self) -> "list[object]":
        """Every field's value, then every EXTRA attribute's: what == compares."""
        out = []
        for name in self.FIELDS + self.EXTRA:
            out.append(getattr(self, name))
        return out

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and isinstance(other, Message) and self.values() == other.values()

    def __repr__(self) -> str:
        return "%s%r" % (type(self).__name__, self.values())


def malformed(detail: str) -> WireError:
    return WireError(MALFORMED, detail)
