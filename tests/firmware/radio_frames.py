"""Test frames for tenace_radio: any length 15..32, a right CRC, SLIP's END and ESC bytes inside."""

from tenace_wire.crc16 import crc16


def make_frame(terminal, seq, size, from_host=False):
    """A frame of `size` bytes (15..32) with a right CRC; its payload and tag bytes include SLIP's END and ESC."""
    buf = bytearray(size - 2)
    buf[0] = (0x80 if from_host else 0) | (1 << 5) | 6
    buf[1] = terminal >> 8
    buf[2] = terminal & 0xFF
    buf[3] = seq >> 8
    buf[4] = seq & 0xFF
    for i in range(5, size - 2):
        buf[i] = (0xC0, 0xDB, terminal & 0xFF, seq & 0xFF, i)[i % 5]
    crc = crc16(buf)
    buf.append(crc >> 8)
    buf.append(crc & 0xFF)
    return bytes(buf)


def terminal_of(frame):
    return (frame[1] << 8) | frame[2]
