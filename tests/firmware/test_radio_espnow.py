"""Frames over ESP-NOW through one broadcast peer (tenace_radio.espnow_transport), with a fake ESPNow."""

from fake_espnow import BROADCAST, Air, FakeEspNow
from radio_frames import make_frame
from tenace_radio.espnow_transport import EspNowTransport

from checks import raises


def test_one_broadcast_peer_and_frames_both_ways():
    air = Air()
    base_esp = FakeEspNow(air, b"base00")
    base = EspNowTransport(base_esp)
    term_esp = FakeEspNow(air, b"term01")
    term = EspNowTransport(term_esp)
    assert base_esp.peers == [BROADCAST] and term_esp.peers == [BROADCAST]
    up = make_frame(1, 1, 20)
    term.send(up)
    assert base.recv() == up and base.recv() is None
    assert term.recv() is None  # a node does not hear itself
    down = make_frame(1, 1, 32, True)
    base.send(down)
    assert term.recv() == down


def test_a_received_frame_is_a_copy_of_the_reused_buffer():
    air = Air()
    base = EspNowTransport(FakeEspNow(air, b"base00"))
    term = EspNowTransport(FakeEspNow(air, b"term01"))
    first, second = make_frame(1, 1, 15), make_frame(2, 2, 30)
    term.send(first)
    term.send(second)
    a = base.recv()
    b = base.recv()
    assert (a, b) == (first, second)


def test_a_peer_registered_already_is_fine_another_error_is_not():
    esp = FakeEspNow(Air(), b"base00")
    esp.add_peer(BROADCAST)
    EspNowTransport(esp)
    assert esp.peers == [BROADCAST] and esp.add_peer_calls == 2
    for i in range(19):
        esp.add_peer(bytes((2, 0, 0, 0, 0, i)))
    raises(OSError, EspNowTransport, esp, b"\x02\x00\x00\x00\x01\x00")  # FULL: not swallowed


def test_a_full_send_queue_drops_and_counts():
    esp = FakeEspNow(Air(), b"base00")
    link = EspNowTransport(esp)
    esp.full = True
    link.send(make_frame(1, 1, 15))
    esp.full = False
    link.send(make_frame(1, 2, 15))
    assert link.dropped == 1 and esp.sent == 1


def test_256_terminals_share_the_one_peer():
    air = Air()
    base_esp = FakeEspNow(air, b"base00")
    base = EspNowTransport(base_esp)
    for t in range(1, 257):
        esp = FakeEspNow(air, bytes((2, 0, 0, 0, t >> 8, t & 0xFF)))
        EspNowTransport(esp).send(make_frame(t, 1, 15 + t % 18))
        assert esp.add_peer_calls == 1 and len(esp.peers) == 1
        got = base.recv()
        assert got == make_frame(t, 1, 15 + t % 18), t
        air.clear()
    assert base_esp.add_peer_calls == 1 and base_esp.peers == [BROADCAST]
