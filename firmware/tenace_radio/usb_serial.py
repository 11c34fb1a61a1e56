"""The USB serial console (sys.stdin / sys.stdout) as a stream for uart_transport, read without blocking.

On a board the laptop's /dev/ttyACM0 or /dev/ttyUSB0 is MicroPython's console: sys.stdin.buffer,
whose read() waits for its bytes. select.poll says whether a byte is there, so PolledStream reads
only what has arrived, one byte per poll (a frame is at most 66 bytes on the wire, a few polls).
"""

import select


class PolledStream:
    """any() and read(n) that never block, over a stream with readinto(buf) and select.poll (or an injected poller)."""

    def __init__(self, stream, poller=None) -> None:
        if poller is None:
            poller = select.poll()
            poller.register(stream, select.POLLIN)
        self._stream = stream
        self._poller = poller
        self._byte = bytearray(1)

    def any(self) -> int:
        """1 when at least one byte can be read now, else 0 (a console does not say how many)."""
        return 1 if self._poller.poll(0) else 0

    def read(self, n: int) -> "bytes | None":
        """Up to n bytes that have arrived, None when none has."""
        out = bytearray()
        byte = self._byte
        while len(out) < n and self._poller.poll(0):
            if not self._stream.readinto(byte):
                break
            out.append(byte[0])
        return bytes(out) if out else None


def console_transport():
    """The base station's laptop side: frames over the USB serial console, Ctrl-C no longer an interrupt
    (0x03 is an ordinary byte inside a frame: it must not stop the relay). release_console() undoes it."""
    import sys

    from tenace_radio.uart_transport import StreamTransport

    _interrupt_char(-1)
    return StreamTransport(PolledStream(sys.stdin.buffer), sys.stdout.buffer)


def release_console() -> None:
    """Ctrl-C interrupts again: the REPL (and mpremote) can take the console back."""
    _interrupt_char(3)


def _interrupt_char(char: int) -> None:
    try:
        from micropython import kbd_intr
    except ImportError:  # CPython: no REPL to protect
        return
    kbd_intr(char)
