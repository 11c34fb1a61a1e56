"""SLIP (RFC 1055) framing of wire frames on a byte stream: USB serial, a UART, the simulator's TCP.

Hand-written: neither MicroPython nor micropython-lib has SLIP, and it is a dozen lines. A frame
goes out as END, the frame with END and ESC escaped, END; the leading END flushes line noise
into an empty (ignored) packet. The receiver resynchronises at the next END after garbage, and
what noise does get through is refused by the frame's CRC.
"""

from micropython import const

END = const(0xC0)
ESC = const(0xDB)
ESC_END = const(0xDC)
ESC_ESC = const(0xDD)
MAX_PACKET = const(64)  # a frame is at most 32 bytes: anything longer is noise, dropped whole


def encode(frame: "bytes | bytearray | memoryview") -> bytes:
    """One frame as SLIP bytes on the stream."""
    out = bytearray((END,))
    for b in frame:
        if b == END:
            out.append(ESC)
            out.append(ESC_END)
        elif b == ESC:
            out.append(ESC)
            out.append(ESC_ESC)
        else:
            out.append(b)
    out.append(END)
    return bytes(out)


class Decoder:
    """Packets out of a byte stream fed in arbitrary pieces; counts what it had to drop."""

    def __init__(self, max_packet: int = MAX_PACKET) -> None:
        self._buf = bytearray()
        self._escaped = False
        self._overflow = False
        self._max = max_packet
        self.dropped = 0  # packets dropped as too long or badly escaped

    def feed(self, data: "bytes | bytearray | memoryview") -> "list[bytes]":
        """Every packet completed by `data`, in order (empty packets between ENDs are skipped)."""
        packets = []
        buf = self._buf
        for b in data:
            if b == END:
                if self._overflow:
                    self.dropped += 1
                elif buf:
                    packets.append(bytes(buf))
                buf[:] = b""
                self._escaped = False
                self._overflow = False
                continue
            if self._overflow:
                continue
            if self._escaped:
                self._escaped = False
                if b == ESC_END:
                    b = END
                elif b == ESC_ESC:
                    b = ESC
                else:  # a protocol violation: drop the packet, resynchronise at the next END
                    self._overflow = True
                    continue
            elif b == ESC:
                self._escaped = True
                continue
            if len(buf) >= self._max:
                self._overflow = True
                continue
            buf.append(b)
        return packets
