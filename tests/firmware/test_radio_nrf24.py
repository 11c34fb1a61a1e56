"""Frames over an nRF24L01+ (tenace_radio.nrf24_transport) through micropython-lib's real nrf24l01 driver, on
register models of the chip joined by a simulated air (nrf24_model): lengths by CRC, pipes, half-duplex, FIFOs."""

from nrf24_model import MAX_RT, RX_DR, Air, Chip, radio
from radio_frames import make_frame
from tenace_radio.nrf24_transport import (
    DOWN,
    PAD,
    UP,
    base_station_transport,
    frame_length,
    pad,
    terminal_transport,
)

from tenace_wire.crc16 import crc16

from checks import raises

_EN_AA = 0x01
_EN_RXADDR = 0x02
_OBSERVE_TX = 0x08


def _pair(air=None):
    air = air or Air()
    base_chip, term_chip = Chip(air), Chip(air)
    return base_station_transport(radio(base_chip)), terminal_transport(radio(term_chip)), base_chip, term_chip


def test_every_length_round_trips_both_ways():
    base, term, base_chip, term_chip = _pair()
    for seq in range(1, 4):
        for size in range(15, 33):
            up = make_frame(size, seq, size)
            term.send(up)
            assert base.recv() == up, (size, seq)
            down = make_frame(size, seq, size, True)
            base.send(down)
            assert term.recv() == down, (size, seq)
    assert base.dropped == term.dropped == 0
    assert base_chip.received == term_chip.received == 54 and base_chip.errors == term_chip.errors == []


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
    air = Air()
    base, _, _, _ = _pair(air)
    noisy = radio(Chip(air))  # another transmitter on the terminals' address, sending what holds no frame
    noisy.reg_write(_EN_AA, 0)
    noisy.open_tx_pipe(UP)
    noise = bytes(range(100, 132))
    assert frame_length(noise) == 0
    noisy.send(noise)
    noisy.send(pad(make_frame(5, 5, 15)))
    assert base.recv() == make_frame(5, 5, 15)
    assert base.dropped == 1
    raises(ValueError, pad, bytes(14))
    raises(ValueError, pad, bytes(33))


def test_chip_set_up_without_auto_ack_and_pipe_zero_closed():
    air = Air()
    base_station_transport(radio(Chip(air)))
    terms = [terminal_transport(radio(Chip(air))) for _ in range(2)]
    for chip in air.chips:
        assert chip.regs[_EN_AA] == 0 and chip.regs[_EN_RXADDR] == 2 and chip.listening(), chip.regs
        assert chip.regs[0x05] == 76 and chip.regs[0x11 + 1] == 32 and chip.errors == []  # RF_CH, RX_PW_P1
    assert air.chips[0].rx_address(1) == UP and air.chips[1].rx_address(1) == DOWN
    terms[0].send(make_frame(1, 1, 20))
    assert terms[1].recv() is None and air.chips[2].received == 0  # terminals do not hear each other
    assert air.chips[0].received == 1


def test_send_keeps_frames_received_before_it_and_listens_again():
    base, term, _, term_chip = _pair()
    down = [make_frame(7, s, 16, True) for s in (1, 2, 3)]
    for f in down:
        base.send(f)
    assert len(term_chip.rx) == 3 and term_chip.status() & RX_DR
    term.send(make_frame(7, 1, 20))  # stop_listening flushes the RX FIFO: the transport read it first
    assert term_chip.listening() and not term_chip.rx
    assert [term.recv(), term.recv(), term.recv()] == down
    assert term.recv() is None


def test_a_full_rx_fifo_drops_what_comes_next():
    base, term, _, term_chip = _pair()
    down = [make_frame(7, s, 16, True) for s in range(1, 6)]
    for f in down:
        base.send(f)
    assert term_chip.overflows == 2  # three levels (PS 8.4): the session layer sends the others again
    got = [term.recv() for _ in range(4)]
    assert got[:3] == down[:3] and got[3] is None


def test_a_failed_send_is_counted_and_listening_resumes():
    air = Air()
    base_chip = Chip(air)
    driver = radio(base_chip)
    base = base_station_transport(driver)
    terminal_transport(radio(Chip(air)))
    driver.reg_write(_EN_AA, 1)  # auto-ack on pipe 0: nobody acknowledges, so the chip gives up (MAX_RT)
    base.send(make_frame(1, 1, 15, True))
    assert base.dropped == 1 and base_chip.listening()
    assert base_chip.sent == 9 and base_chip.regs[_OBSERVE_TX] == 0x18  # the driver's 8 retransmits, 1 packet lost
    assert not base_chip.tx and not base_chip.status() & MAX_RT  # start_listening flushed it and cleared the flag
