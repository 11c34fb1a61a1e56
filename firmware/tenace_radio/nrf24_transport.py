"""Wire frames over an nRF24L01+ radio through micropython-lib's nrf24l01 driver: 32-byte payloads, half-duplex.

How the receiver learns a frame's length: the driver sends and reads fixed payloads (payload_size,
here 32), and a frame is 15..32 bytes. A length byte would not fit a 32-byte frame; the chip's
dynamic payload length would need the driver's recv() bypassed (it reads payload_size bytes and
never asks R_RX_PL_WID). So the frame is padded, and its own CRC-16 marks its end: the CRC of a
message followed by that CRC (CCITT-FALSE: no reflection, no final xor) is 0, so the frame ends
where the running CRC over the payload is 0. The pad is chosen so that no prefix of it brings the
running CRC back to 0 (zeros would: CRC(0, 0x00...) stays 0): 0xFF bytes, checked by the tests for
every pad length. The receiver takes the longest prefix (15..32) whose CRC residue is 0; a shorter
one can only come from the frame's own bytes, and the pad rules out a longer one. A 32-byte frame
needs no pad.

Addressing: one address down (the base station to every terminal) and one up (every terminal to
the base station); the protocol's terminal id and ACK frames do the rest. The chip's auto-ack is
off: many terminals acknowledging one broadcast at once would collide, and 256 terminals cannot
have pipes of their own (the chip has 6). Pipe 0 (which the driver points at the TX address) is
closed, so a terminal does not hear the other terminals.

Half-duplex: send() drains the receive FIFO (stop_listening flushes it), switches to TX, sends,
and goes back to listening, unless listen(False) turned the receiver off (a sleepy terminal, wire_link.py):
then the chip rests in standby-I (26 µA against 12.6 mA listening) until listen(True).
"""

from micropython import const

from tenace_wire.crc16 import crc16
from tenace_wire.frame_types import MAX_FRAME, OVERHEAD

PAYLOAD_SIZE = const(32)  # pass as NRF24L01(..., payload_size=PAYLOAD_SIZE)
CHANNEL = const(76)       # 2.476 GHz: above most Wi-Fi channels (1, 6, 11 end at 2.473 GHz)
UP = b"TnUp0"             # terminals -> base station
DOWN = b"TnDn0"           # base station -> terminals
PAD = b"\xff" * (MAX_FRAME - OVERHEAD)

_EN_AA = const(0x01)      # nRF24L01+ register: auto-acknowledgement per pipe
_EN_RXADDR = const(0x02)  # nRF24L01+ register: enabled receive pipes


def pad(frame: "bytes | bytearray | memoryview") -> bytes:
    """One radio payload for a frame of 15..32 bytes."""
    n = len(frame)
    if not OVERHEAD <= n <= MAX_FRAME:
        raise ValueError("a frame of %d bytes: %d..%d" % (n, OVERHEAD, MAX_FRAME))
    return bytes(frame) + PAD[:PAYLOAD_SIZE - n]


def frame_length(payload: "bytes | bytearray | memoryview") -> int:
    """The length of the frame at the start of a payload: the longest prefix whose CRC residue is 0; 0 for none."""
    view = memoryview(payload)
    end = len(payload) if len(payload) < PAYLOAD_SIZE else PAYLOAD_SIZE
    if end < OVERHEAD:
        return 0
    crc = crc16(view[:OVERHEAD])
    found = OVERHEAD if crc == 0 else 0
    for i in range(OVERHEAD, end):
        crc = crc16(view[i:i + 1], crc)
        if crc == 0:
            found = i + 1
    return found


class Nrf24Transport:
    """Frames over a NRF24L01 driver (built with payload_size=PAYLOAD_SIZE), sending on tx, listening on rx."""

    def __init__(self, nrf, tx_address: bytes, rx_address: bytes) -> None:
        self._nrf = nrf
        self._ready: "list[bytes]" = []
        self.dropped = 0  # sends the driver reported failed, payloads holding no frame
        self._ear = True
        nrf.reg_write(_EN_AA, 0)
        nrf.open_tx_pipe(tx_address)
        nrf.open_rx_pipe(1, rx_address)
        nrf.reg_write(_EN_RXADDR, 1 << 1)
        nrf.start_listening()

    def send(self, frame: "bytes | bytearray | memoryview") -> None:
        payload = pad(frame)
        nrf = self._nrf
        self._drain()
        nrf.stop_listening()
        try:
            nrf.send(payload)
        except OSError:  # the driver's "send failed" or its timeout: dropped, the session retransmits
            self.dropped += 1
        if self._ear:
            nrf.start_listening()

    def listen(self, on: bool) -> None:
        """The receiver on, or off (what the FIFO holds is kept for recv())."""
        self._ear = on
        if on:
            self._nrf.start_listening()
        else:
            self._drain()
            self._nrf.stop_listening()

    def recv(self) -> "bytes | None":
        if self._ready:
            return self._ready.pop(0)
        nrf = self._nrf
        while nrf.any():
            frame = self._unpad(nrf.recv())
            if frame is not None:
                return frame
        return None

    def _drain(self) -> None:
        nrf = self._nrf
        while nrf.any():
            frame = self._unpad(nrf.recv())
            if frame is not None:
                self._ready.append(frame)

    def _unpad(self, payload: bytes) -> "bytes | None":
        n = frame_length(payload)
        if not n:
            self.dropped += 1
            return None
        return payload[:n]


def terminal_transport(nrf) -> Nrf24Transport:
    """A terminal's end: sends up, hears down."""
    return Nrf24Transport(nrf, UP, DOWN)


def base_station_transport(nrf) -> Nrf24Transport:
    """The base station's end: sends down, hears up."""
    return Nrf24Transport(nrf, DOWN, UP)
