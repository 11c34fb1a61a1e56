"""Wire frames over a byte stream shaped like machine.UART, SLIP-framed (tenace_wire.slip)."""

from micropython import const

from tenace_wire import slip

_CHUNK = const(64)      # bytes read at a time: two SLIP-escaped frames at most
_MAX_READS = const(8)   # reads per recv(): a stream of noise cannot hold the caller's loop


class StreamTransport:
    """Frames over a reader with any() -> int and read(n) -> bytes | None, read() returning what has arrived
    without waiting (machine.UART built with timeout=0, usb_serial.PolledStream), and a writer with
    write(buf) (the same UART, sys.stdout.buffer)."""

    def __init__(self, reader, writer) -> None:
        self._reader = reader
        self._writer = writer
        self._decoder = slip.Decoder()
        self._ready: "list[bytes]" = []
        self.short_writes = 0  # frames the writer took only part of (the receiver's CRC refuses them)

    @property
    def dropped(self) -> int:
        """Packets dropped: received too long or badly escaped, or written only in part."""
        return self._decoder.dropped + self.short_writes

    def send(self, frame: "bytes | bytearray | memoryview") -> None:
        data = slip.encode(frame)
        written = self._writer.write(data)
        if written is None or written < len(data):  # machine.UART.write gives None on a timeout
            self.short_writes += 1

    def recv(self) -> "bytes | None":
        ready = self._ready
        if not ready:
            reader = self._reader
            decoder = self._decoder
            for _ in range(_MAX_READS):
                # any() may say 1 when more is waiting (machine.UART's docs): read() takes what is there.
                if not reader.any():
                    break
                data = reader.read(_CHUNK)
                if not data:
                    break
                ready.extend(decoder.feed(data))
                if ready:
                    break
        return ready.pop(0) if ready else None


class UartTransport(StreamTransport):
    """Frames over one machine.UART (built with timeout=0 so read() never waits): a terminal wired by serial."""

    def __init__(self, uart) -> None:
        super().__init__(uart, uart)
