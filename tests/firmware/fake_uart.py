"""A fake machine.UART for tenace_radio's tests: any(), read(n) giving None when empty, write() with limited room."""


class FakeUart:
    """machine.UART's any/read/write: the test puts bytes in `rx`, write() appends to `tx` (at most `room` a call)."""

    def __init__(self, room=None):
        self.rx = bytearray()
        self.tx = bytearray()
        self.room = room

    def any(self):
        return len(self.rx)

    def read(self, n=-1):
        if not self.rx:
            return None  # what machine.UART gives with nothing waiting
        if n < 0 or n > len(self.rx):
            n = len(self.rx)
        data = bytes(self.rx[:n])
        self.rx[:n] = b""
        return data

    def write(self, buf):
        n = len(buf) if self.room is None else min(self.room, len(buf))
        self.tx.extend(buf[:n])
        return n
