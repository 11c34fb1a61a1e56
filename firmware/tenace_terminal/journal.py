"""The terminal's journal: append-only records on flash, each length-prefixed and CRC'd (hard rule 1).

A record on disk: 0xA5, payload length (2 bytes, little-endian), the payload (a JSON object), the
CRC-16 of the length and payload (2 bytes, big-endian; tenace_wire.crc16, the frames' own). Reading
stops at the first record that is short or whose CRC is wrong (a write cut by a power loss), so
nothing half-written is ever taken for a record; the next append first rewrites the file without that tail.
"""

import json
import os

from micropython import const

from tenace_wire.crc16 import crc16

_MAGIC = const(0xA5)
_HEADER = const(3)
_CRC_BYTES = const(2)
_COPY_BYTES = const(128)  # the buffer a repair copies the journal through
FILE_NAME = "journal.bin"
_TMP_NAME = const("journal.tmp")

# CPython flushes to the OS only; os.fsync makes it reach the disk. MicroPython's flush() syncs littlefs.
_fsync = getattr(os, "fsync", None)


def write_record(f, record: dict) -> int:
    """Write one record as it is kept on flash to file `f`; returns its size. In pieces, not joined: a
    record is never copied whole in RAM (a heap of a few KB has no room for copies)."""
    payload = json.dumps(record).encode()
    n = len(payload)
    if n > 0xFFFF:
        raise ValueError("journal record too long: %d bytes" % n)
    header = bytes((_MAGIC, n & 0xFF, n >> 8))
    crc = crc16(payload, crc16(memoryview(header)[1:]))
    f.write(header)
    f.write(payload)
    f.write(bytes((crc >> 8, crc & 0xFF)))
    return _HEADER + n + _CRC_BYTES


def sync(f) -> None:
    """Flush file `f` to the flash: when this returns, what was written survives a power cut."""
    f.flush()
    if _fsync is not None:
        _fsync(f.fileno())


class Journal:
    """The journal file in a directory of a mounted filesystem: read it back, append to it, rewrite it whole."""

    def __init__(self, directory: str) -> None:
        base = directory.rstrip("/") + "/" if directory not in ("", "/") else directory
        self.path = base + FILE_NAME
        self._tmp = base + _TMP_NAME
        # A leftover temporary file is a rewrite that never reached its rename: the journal itself is whole.
        try:
            os.stat(self._tmp)
        except OSError:
            pass
        else:
            os.remove(self._tmp)
        self.size = 0  # bytes of whole records, as far as known
        self._suspect_tail = True  # unknown until read: the file may end in a torn record

    def records(self):
        """Yield every whole record in order; stops at the first torn or corrupt one."""
        self.size = 0
        self._suspect_tail = False
        try:
            f = open(self.path, "rb")
        except OSError:
            return  # no journal yet: a new terminal
        try:
            offset = 0
            while True:
                header = f.read(_HEADER)
                if not header:
                    break
                if len(header) < _HEADER or header[0] != _MAGIC:
                    self._suspect_tail = True
                    break
                n = header[1] | (header[2] << 8)
                body = f.read(n + _CRC_BYTES)
                if len(body) < n + _CRC_BYTES:
                    self._suspect_tail = True
                    break
                crc = crc16(memoryview(body)[:n], crc16(memoryview(header)[1:]))
                if crc != (body[n] << 8) | body[n + 1]:
                    self._suspect_tail = True
                    break
                try:
                    record = json.loads(body[:n])
                except ValueError:
                    self._suspect_tail = True
                    break
                offset += _HEADER + n + _CRC_BYTES
                self.size = offset
                yield record
        finally:
            f.close()

    def append(self, record: dict) -> None:
        """Write one record and flush it to flash; when this returns the record survives a power cut."""
        if self._suspect_tail:
            self._repair()
        # Until this write is known whole, a failure may leave part of it behind.
        self._suspect_tail = True
        with open(self.path, "ab") as f:
            size = write_record(f, record)
            sync(f)
        self._suspect_tail = False
        self.size += size

    def rewrite(self, records) -> None:
        """Replace the journal by `records`, atomically: the old file stays whole until the new one is."""
        size = 0
        with open(self._tmp, "wb") as f:
            for record in records:
                size += write_record(f, record)
            sync(f)
        self._replace(size)

    def _replace(self, size: int) -> None:
        os.rename(self._tmp, self.path)  # littlefs and POSIX both replace the old file in one step
        self.size = size
        self._suspect_tail = False

    def _repair(self) -> None:
        # Keep the whole records and drop a torn tail, so new records never follow garbage. The whole part is
        # copied through a small buffer, not decoded into RAM: a journal near compaction size would not fit.
        for _ in self.records():  # to find self.size, where the whole records end
            pass
        if not self._suspect_tail:
            return
        size = left = self.size
        buffer = memoryview(bytearray(_COPY_BYTES))
        with open(self.path, "rb") as old, open(self._tmp, "wb") as new:
            while left:
                n = old.readinto(buffer[:min(left, _COPY_BYTES)])
                if not n:
                    raise OSError("the journal ends before its records")
                new.write(buffer[:n])
                left -= n
            sync(new)
        self._replace(size)
