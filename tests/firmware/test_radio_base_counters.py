"""The base station relay (tenace_radio.base_station): counters, rounds and the run loop, over list transports."""

from tenace_radio.base_station import BaseStation


class _Link:
    """A transport (tenace_radio's interface) over lists: recv() pops `inbox`, send() appends to `sent`."""

    def __init__(self, inbox):
        self.inbox = inbox
        self.sent = []
        self.dropped = 0

    def send(self, frame):
        self.sent.append(frame)

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None


def test_counters_of_refused_and_dropped_frames():
    radio = _Link([bytes(n) for n in (0, 3, 14, 33, 40, 20, 15, 32)])
    serial = _Link([bytes(n) for n in (14, 15, 33, 32)])
    radio.dropped, serial.dropped = 2, 5  # the transports' own drops are reported with the relay's
    station = BaseStation(radio, serial)
    while station.poll():
        pass
    assert station.counters() == {
        "up": 3, "down": 2, "bad_up": 5, "bad_down": 2, "radio_dropped": 2, "serial_dropped": 5,
    }
    assert serial.sent == [bytes(20), bytes(15), bytes(32)]
    assert radio.sent == [bytes(15), bytes(32)]


def test_one_round_takes_a_burst_each_way_and_run_stops_when_idle_says():
    radio = _Link([bytes(15)] * 12)
    serial = _Link([bytes(16)] * 12)
    station = BaseStation(radio, serial)
    assert station.poll() == 2 * station.burst
    assert (len(serial.sent), len(radio.sent)) == (station.burst, station.burst)
    idles = []

    def idle():
        idles.append(1)
        return len(idles) == 3

    station.run(idle)
    assert (station.up, station.down, len(idles)) == (12, 12, 3)
    assert station.poll() == 0
