"""CRC-16/CCITT-FALSE over a frame: polynomial 0x1021, init 0xFFFF, no reflection, no final xor.

Its published check value is 0x29B1 for the ASCII bytes "123456789". It catches radio noise and
serial glitches (every error burst up to 16 bits); it is no protection against a forger, which is
the authentication tag's job (auth.py).
"""

from micropython import const

# A 16-entry table (one per nibble) instead of 256: 32 bytes of constants rather than ~1 KB of RAM
# on the terminal, for two table steps per byte.
_NIBBLE = const((
    0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
    0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF,
))


def crc16(data: "bytes | bytearray | memoryview", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of `data`; pass a previous result as `crc` to continue over more bytes."""
    table = _NIBBLE
    for byte in data:
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (byte >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (byte & 0x0F)]
    return crc
