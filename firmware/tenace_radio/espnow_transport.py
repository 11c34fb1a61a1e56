"""Wire frames over ESP-NOW (the ESP32's built-in espnow module), every node on the one broadcast peer.

Why broadcast: ESP-NOW registers at most 20 peers (6 encrypted) and a base station serves hundreds
of terminals, so no node registers another's MAC. Each registers the broadcast address once and
sends every frame to it; every node in range hears every frame. The protocol addresses frames
itself: a terminal keeps only host frames bearing its own terminal id (TerminalSession refuses
another's before hashing, and the other terminals' frames by their direction bit), the base station
relays every frame it hears to the laptop, and
delivery is confirmed by the protocol's ACK frames, not by ESP-NOW (broadcast sends get no MAC-layer
acknowledgement, so send(..., sync=False): waiting would buy nothing). ESP-NOW's own encryption
works only between registered peers; the frames carry their own tag, so nothing is lost by it.
Every node must be on the same Wi-Fi channel (CHANNEL, set on the WLAN interface by the board file).
A sleepy terminal (wire_link.py) turns its receiver off between windows through listen(): the board file's radio
then has power(on), which stops and starts the Wi-Fi (ESP-NOW without an access point has no sleep of its own).
"""

from micropython import const

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
CHANNEL = const(1)   # the Wi-Fi channel of the whole event: the base station and every terminal
RXBUF = const(4096)  # receive buffer bytes (default 526: a dozen frames; a round's end brings bursts)


class EspNowTransport:
    """Frames over an active espnow.ESPNow (or a fake with add_peer, send, irecv): one peer, the broadcast MAC."""

    def __init__(self, esp, peer: bytes = BROADCAST) -> None:
        self._esp = esp
        self._peer = peer
        self.dropped = 0  # frames ESP-NOW would not queue (ESP_ERR_ESPNOW_NO_MEM)
        self._host = None  # the MAC the last host frame came from (the base station's): its signal is rssi()
        try:
            esp.add_peer(peer)
        except OSError as e:  # registered already (a second transport, a board file): one peer is the point
            if "EXIST" not in str(e):
                raise

    def send(self, frame: "bytes | bytearray | memoryview") -> None:
        try:
            self._esp.send(self._peer, frame, False)
        except OSError:  # the send queue is full: dropped, the session retransmits
            self.dropped += 1

    def recv(self) -> "bytes | None":
        mac, msg = self._esp.irecv(0)
        if msg is None:
            return None
        if len(msg) and msg[0] & 0x80:  # a host frame (frame.py's direction bit), not another terminal's
            self._host = mac
        # irecv reuses its buffer for the next message: the frame is copied out.
        return bytes(msg)

    def listen(self, on: bool) -> None:
        """The receiver on or off, where the radio has power(on) (the terminal's board file); else always on."""
        power = getattr(self._esp, "power", None)
        if power is not None:
            power(on)

    def rssi(self) -> int:
        """The signal strength in dBm of the base station's last frame (ESP-NOW's peers_table), 0 when unknown."""
        table = getattr(self._esp, "peers_table", None)
        entry = table.get(self._host) if table is not None and self._host is not None else None
        return entry[0] if entry else 0
