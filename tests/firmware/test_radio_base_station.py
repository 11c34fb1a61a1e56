"""The base station relay (tenace_radio.base_station): 256 terminals over ESP-NOW to a serial laptop and back."""

from fake_espnow import BROADCAST, Air, FakeEspNow
from fake_uart import FakeUart
from radio_frames import make_frame, terminal_of
from tenace_radio.base_station import BaseStation
from tenace_radio.espnow_transport import EspNowTransport
from tenace_radio.uart_transport import UartTransport

from tenace_wire import slip


def _station(air):
    base_esp = FakeEspNow(air, b"base00")
    laptop = FakeUart()
    station = BaseStation(EspNowTransport(base_esp), UartTransport(laptop))
    return station, base_esp, laptop


def _mac(t):
    return bytes((2, 0, 0, 0, t >> 8, t & 0xFF))


def test_every_frame_of_256_terminals_reaches_the_laptop():
    air = Air()
    station, base_esp, laptop = _station(air)
    decoder = slip.Decoder()
    for t in range(1, 257):
        esp = FakeEspNow(air, _mac(t))
        term = EspNowTransport(esp)
        sent = [make_frame(t, s, 15 + (t + s) % 18) for s in (1, 2)]
        for f in sent:
            term.send(f)
        station.poll()
        assert decoder.feed(laptop.tx) == sent, t
        laptop.tx[:] = b""
        assert len(esp.peers) == 1
        air.clear()
    assert station.up == 512 and station.down == 0
    assert base_esp.add_peer_calls == 1 and base_esp.peers == [BROADCAST]


def test_host_frames_go_out_once_each_to_every_terminal():
    air = Air()
    station, base_esp, laptop = _station(air)
    # A few terminals listen through the whole broadcast; each keeps the frames bearing its id, as its session does.
    listeners = {}
    for t in (1, 2, 128, 255, 256):
        listeners[t] = EspNowTransport(FakeEspNow(air, _mac(t)))
    mine = {t: [] for t in listeners}
    heard = 0
    for t in range(1, 257):
        laptop.rx.extend(slip.encode(make_frame(t, 9, 32, True)))
        station.poll()
        for own, link in listeners.items():
            frame = link.recv()
            while frame is not None:
                heard += 1
                if terminal_of(frame) == own:
                    mine[own].append(frame)
                frame = link.recv()
        air.clear()
    assert station.down == 256 and base_esp.sent == 256
    assert heard == 256 * len(listeners)
    for t in listeners:
        assert mine[t] == [make_frame(t, 9, 32, True)], t


def test_a_garbled_serial_packet_and_a_full_radio_queue_are_counted():
    air = Air()
    station, base_esp, laptop = _station(air)
    term = FakeEspNow(air, _mac(1))
    term.add_peer(BROADCAST)
    term.send(BROADCAST, bytes(40))  # ESP-NOW carries up to 250 bytes: length is the only check
    laptop.rx.extend(bytes((slip.END, slip.ESC, 1, slip.END)) + slip.encode(bytes(15)))
    base_esp.full = True
    while station.poll():
        pass
    assert station.counters() == {
        "up": 0, "down": 1, "bad_up": 1, "bad_down": 0, "radio_dropped": 1, "serial_dropped": 1,
    }
