"""The base station: relays frames between the radio and the laptop's serial link, and counts them.

It holds no key and decodes nothing but a frame's length: the host and the terminals authenticate
(tenace_wire). Frames from the radio go to the serial side, frames from the serial side go out on
the radio to every terminal. Nothing is dropped uncounted: the relayed frames per direction, the
packets refused as no frame (a length outside 15..32), and the transports' own drops.
"""

from micropython import const

from tenace_wire.frame_types import MAX_FRAME, OVERHEAD

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable

BURST = const(8)  # frames per direction per round: a busy side cannot starve the other


class BaseStation:
    """Relay between two transports (tenace_radio): `radio` towards the terminals, `serial` towards the laptop."""

    def __init__(self, radio, serial, burst: int = BURST) -> None:
        self.radio = radio
        self.serial = serial
        self.burst = burst
        self.up = 0        # frames relayed radio -> serial
        self.down = 0      # frames relayed serial -> radio
        self.bad_up = 0    # packets from the radio that were no frame (wrong length), not relayed
        self.bad_down = 0  # packets from the serial side that were no frame, not relayed

    def poll(self) -> int:
        """One round of relaying: up to `burst` packets each way. Returns how many packets were taken."""
        taken = 0
        radio = self.radio
        serial = self.serial
        for _ in range(self.burst):
            frame = radio.recv()
            if frame is None:
                break
            taken += 1
            if OVERHEAD <= len(frame) <= MAX_FRAME:
                serial.send(frame)
                self.up += 1
            else:
                self.bad_up += 1
        for _ in range(self.burst):
            frame = serial.recv()
            if frame is None:
                break
            taken += 1
            if OVERHEAD <= len(frame) <= MAX_FRAME:
                radio.send(frame)
                self.down += 1
            else:
                self.bad_down += 1
        return taken

    def run(self, idle: "Callable[[], object] | None" = None) -> None:
        """Relay until stopped: after a round that found nothing, `idle()` is called (a board's 1 ms sleep
        and stop button); a true answer ends the loop."""
        while True:
            if not self.poll() and idle is not None and idle():
                return

    def counters(self) -> "dict[str, int]":
        """Every count, the transports' drops included (radio_dropped, serial_dropped)."""
        return {
            "up": self.up,
            "down": self.down,
            "bad_up": self.bad_up,
            "bad_down": self.bad_down,
            "radio_dropped": self.radio.dropped,
            "serial_dropped": self.serial.dropped,
        }
