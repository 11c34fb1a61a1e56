"""A fake espnow.ESPNow for tenace_radio's tests, on a shared Air: every message is a broadcast heard by every node.

It keeps what matters here of the real one: at most 20 peers, no peer twice, send only to a registered
peer, a full send queue raising ESP_ERR_ESPNOW_NO_MEM, one irecv buffer reused for every message.
"""

BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class Air:
    """Every ESP-NOW message sent, in order; each FakeEspNow reads it from its own position (absolute indexes)."""

    def __init__(self):
        self.log = []    # (sender MAC, message)
        self.start = 0   # absolute index of log[0]

    def clear(self):
        self.start += len(self.log)
        self.log = []


class FakeEspNow:
    """espnow.ESPNow: add_peer (20 at most, no twice), send to a registered peer, irecv reusing one buffer."""

    MAX_PEERS = 20

    def __init__(self, air, mac):
        self.air = air
        self.mac = mac
        self.peers = []
        self.add_peer_calls = 0
        self.sent = 0
        self.full = False  # True: send raises ESP_ERR_ESPNOW_NO_MEM, as with a full send queue
        self.pos = air.start + len(air.log)  # hears only what is sent after it is switched on
        self._msg = bytearray()

    def add_peer(self, mac):
        self.add_peer_calls += 1
        if mac in self.peers:
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
        if len(self.peers) >= self.MAX_PEERS:
            raise OSError(-12394, "ESP_ERR_ESPNOW_FULL")
        self.peers.append(mac)

    def send(self, mac, msg, sync=True):
        if mac not in self.peers:
            raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
        if self.full:
            raise OSError(-12391, "ESP_ERR_ESPNOW_NO_MEM")
        assert mac == BROADCAST, "a unicast send in the Tenace design"
        self.air.log.append((self.mac, bytes(msg)))
        self.sent += 1
        return True

    def irecv(self, timeout_ms=None):
        air = self.air
        if self.pos < air.start:
            self.pos = air.start
        while self.pos < air.start + len(air.log):
            mac, msg = air.log[self.pos - air.start]
            self.pos += 1
            if mac != self.mac:
                self._msg[:] = msg
                return mac, self._msg
        return None, None
