"""Frames over an nRF24L01+ (tenace_radio.nrf24_transport) with a fake driver: lengths by CRC, pipes, half-duplex."""

from radio_frames import make_frame
from tenace_radio.nrf24_transport import (
    PAD,
    base_station_transport,
    frame_length,
    pad,
    terminal_transport,
)

from tenace_wire.crc16 import crc16

from checks import raises


class Ether:
    """2.4 GHz for FakeNrf24 chips: a payload sent to an address reaches every listening chip with a pipe open on it."""

    def __init__(self):
        self.chips = []


class FakeNrf24:
    """nrf24l01.NRF24L01 (micropython-lib), payload_size 32: EN_AA, EN_RXADDR, pipes 0 and 1, a 3-deep RX FIFO."""

    FIFO = 3

    def __init__(self, ether, payload_size=32):
        self.payload_size = payload_size
        self.regs = {0x01: 0x3F, 0x02: 0x03}  # the chip's reset values: auto-ack on, pipes 0 and 1 open
        self.pipes = [None, None]
        self.listening = False
        self.fifo = []
        self.fail = False  # True: send raises as the driver does after its timeout
        self.sent = 0
        self.flushed = 0   # payloads lost to stop_listening's flush
        ether.chips.append(self)
        self.ether = ether

    def reg_write(self, reg, value):
        self.regs[reg] = value

    def reg_read(self, reg):
        return self.regs.get(reg, 0)

    def open_tx_pipe(self, address):
        assert len(address) == 5
        self.tx = address
        self.pipes[0] = address  # the driver points pipe 0 at the TX address (for auto-ack)

    def open_rx_pipe(self, pipe_id, address):
        assert len(address) == 5 and pipe_id == 1
        self.pipes[1] = address
        self.regs[0x02] |= 1 << pipe_id

    def start_listening(self):
        self.fifo = []
        self.listening = True

    def stop_listening(self):
        self.listening = False
        self.flushed += len(self.fifo)
        self.fifo = []

    def any(self):
        return bool(self.fifo)

    def recv(self):
        return self.fifo.pop(0)

    def send(self, buf, timeout=500):
        assert not self.listening, "send while listening: the chip is half-duplex"
        if self.fail:
            raise OSError("send failed")
        payload = bytes(buf) + bytes(self.payload_size - len(buf))  # the driver pads with zeros
        self.sent += 1
        for chip in self.ether.chips:
            if chip is not self and chip.listening and chip.hears(self.tx) and len(chip.fifo) < self.FIFO:
                chip.fifo.append(payload)

    def hears(self, address):
        open_pipes = self.regs[0x02]
        return any(open_pipes >> i & 1 and self.pipes[i] == address for i in (0, 1))


def _pair():
    ether = Ether()
    base_chip, term_chip = FakeNrf24(ether), FakeNrf24(ether)
    return base_station_transport(base_chip), terminal_transport(term_chip), base_chip, term_chip


def test_every_length_round_trips_both_ways():
    base, term, _, _ = _pair()
    for seq in range(1, 4):
        for size in range(15, 33):
            up = make_frame(size, seq, size)
            term.send(up)
            assert base.recv() == up, (size, seq)
            down = make_frame(size, seq, size, True)
            base.send(down)
            assert term.recv() == down, (size, seq)
    assert base.dropped == term.dropped == 0


def test_no_prefix_of_the_pad_has_a_zero_crc_residue():
    # After a frame the running CRC is 0; the pad must never bring it back to 0, or a longer length would match.
    for j in range(1, len(PAD) + 1):
        assert crc16(PAD[:j], 0) != 0, j
    # Zeros, the driver's own padding, would: every longer length would look like a frame.
    assert frame_length(make_frame(1, 1, 20) + bytes(12)) == 32


def test_frames_that_end_like_the_pad_keep_their_length():
    for seq in range(1, 3000):
        size = 15 + seq % 18
        frame = make_frame(seq, seq, size)
        assert frame_length(pad(frame)) == size, (seq, size)


def test_a_payload_holding_no_frame_is_dropped_and_counted():
    base, _, base_chip, _ = _pair()
    noise = bytes(range(100, 132))
    assert frame_length(noise) == 0
    base_chip.fifo.append(noise)
    base_chip.fifo.append(pad(make_frame(5, 5, 15)))
    assert base.recv() == make_frame(5, 5, 15)
    assert base.dropped == 1
    raises(ValueError, pad, bytes(14))
    raises(ValueError, pad, bytes(33))


def test_chip_set_up_without_auto_ack_and_pipe_zero_closed():
    ether = Ether()
    base_station_transport(FakeNrf24(ether))
    terms = [terminal_transport(FakeNrf24(ether)) for _ in range(2)]
    for chip in ether.chips:
        assert chip.regs[0x01] == 0 and chip.regs[0x02] == 2 and chip.listening
    terms[0].send(make_frame(1, 1, 20))
    assert terms[1].recv() is None  # terminals do not hear each other
    assert ether.chips[0].fifo


def test_send_keeps_frames_received_before_it_and_listens_again():
    base, term, _, term_chip = _pair()
    down = [make_frame(7, s, 16, True) for s in (1, 2, 3)]
    for f in down:
        base.send(f)
    term.send(make_frame(7, 1, 20))  # stop_listening flushes the FIFO: the transport read it first
    assert term_chip.flushed == 0 and term_chip.listening
    assert [term.recv(), term.recv(), term.recv()] == down
    assert term.recv() is None


def test_a_failed_send_is_counted_and_listening_resumes():
    base, _, base_chip, _ = _pair()
    base_chip.fail = True
    base.send(make_frame(1, 1, 15, True))
    assert base.dropped == 1 and base_chip.listening
