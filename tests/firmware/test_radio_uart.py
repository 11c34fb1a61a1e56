"""Frames over a UART-shaped stream and the USB console (tenace_radio.uart_transport, usb_serial), with fakes."""

from fake_uart import FakeUart
from radio_frames import make_frame
from tenace_radio.uart_transport import StreamTransport, UartTransport
from tenace_radio.usb_serial import PolledStream

from tenace_wire import slip


def test_frames_arrive_whole_from_pieces_of_any_size():
    frames = [make_frame(t, 1, 15 + t * 7 % 18) for t in range(1, 7)]
    stream = b"".join([slip.encode(f) for f in frames])
    for piece in (1, 2, 7, 33, 64, 500):
        uart = FakeUart()
        link = UartTransport(uart)
        got = []
        for start in range(0, len(stream), piece):
            uart.rx.extend(stream[start:start + piece])
            frame = link.recv()
            while frame is not None:
                got.append(frame)
                frame = link.recv()
        assert got == frames, piece
        assert link.recv() is None and link.dropped == 0


def test_send_writes_one_slip_packet_per_frame():
    uart = FakeUart()
    link = UartTransport(uart)
    frame = make_frame(300, 7, 32)
    assert b"\xc0" in frame[1:-1]  # the escapes are exercised
    link.send(frame)
    link.send(frame)
    assert bytes(uart.tx) == slip.encode(frame) * 2
    assert slip.Decoder().feed(uart.tx) == [frame, frame]


def test_a_partial_write_and_a_garbled_packet_are_counted():
    uart = FakeUart(room=10)
    link = UartTransport(uart)
    link.send(make_frame(1, 1, 20))
    assert link.short_writes == 1 and link.dropped == 1
    uart.rx.extend(bytes((slip.END, 1, slip.ESC, 0x01, slip.END)) + slip.encode(make_frame(2, 2, 15)))
    assert link.recv() == make_frame(2, 2, 15)
    assert link.dropped == 2


def test_reader_and_writer_may_be_two_objects():
    inbound, outbound = FakeUart(), FakeUart()
    link = StreamTransport(inbound, outbound)
    inbound.rx.extend(slip.encode(make_frame(9, 9, 16)))
    link.send(make_frame(8, 8, 17))
    assert link.recv() == make_frame(9, 9, 16)
    assert slip.Decoder().feed(outbound.tx) == [make_frame(8, 8, 17)]
    assert not inbound.tx


class _Console:
    """A stream with readinto (sys.stdin.buffer's shape) whose bytes arrive when the test says."""

    def __init__(self):
        self.data = bytearray()
        self.reads = 0

    def readinto(self, buf):
        assert self.data, "a read that would block"
        self.reads += 1
        buf[0] = self.data[0]
        self.data[:1] = b""
        return 1


class _Poller:
    def __init__(self, console):
        self.console = console

    def poll(self, timeout):
        assert timeout == 0
        return [(self.console, 1)] if self.console.data else []


def test_polled_console_reads_only_what_has_arrived():
    console = _Console()
    stream = PolledStream(console, _Poller(console))
    assert stream.any() == 0 and stream.read(64) is None
    console.data.extend(b"abc")
    assert stream.any() == 1
    assert stream.read(2) == b"ab"
    assert stream.read(64) == b"c"
    assert stream.read(64) is None and console.reads == 3


def test_frames_over_the_polled_console():
    console = _Console()
    out = FakeUart()
    link = StreamTransport(PolledStream(console, _Poller(console)), out)
    frames = [make_frame(t, t, 32) for t in (1, 2, 3)]
    for f in frames:
        console.data.extend(slip.encode(f))
    assert [link.recv(), link.recv(), link.recv()] == frames
    assert link.recv() is None
