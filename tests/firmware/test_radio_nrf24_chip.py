"""The nRF24L01+ register model (nrf24_model) under micropython-lib's real nrf24l01 driver: Enhanced ShockBurst's
auto-acknowledgement and retransmission over a lossy seeded air, what a receiver must share with the sender, and the
model's own refusals. The transport's tests over the same model are test_radio_nrf24."""

from nrf24_model import Air, Chip, radio

_EN_AA = 0x01


def _acked_pair(loss, seed):
    """Two chips with the driver's own set-up, auto-ack on (the reset value): a sender on pipe 0, a receiver."""
    air = Air(seed, loss)
    tx_chip, rx_chip = Chip(air), Chip(air)
    tx, rx = radio(tx_chip, payload_size=8), radio(rx_chip, payload_size=8)
    tx.open_tx_pipe(b"Tx000")
    rx.open_rx_pipe(1, b"Tx000")
    rx.start_listening()
    return air, tx, rx, tx_chip, rx_chip


def test_auto_ack_and_retransmission_give_each_payload_once_over_a_lossy_air():
    # Half the packets and ACKs lost: a try gets through 1 time in 4, 9 tries fail 1 time in 13.
    air, tx, rx, tx_chip, rx_chip = _acked_pair(500, 7)
    acked = bytearray(60)  # per payload: 1 when the sender had its ACK
    seen = bytearray(60)  # how many times the receiver gave it
    last = -1
    for n in range(60):
        try:
            tx.send(bytes([n]) * 8)
        except OSError:  # MAX_RT: 9 packets, none acknowledged; the payload stays in the TX FIFO (PS 7.5.2)
            tx.flush_tx()  # as the transport's start_listening does, or the next send would send it again
        else:
            acked[n] = 1
        while rx.any():
            got = rx.recv()
            assert got == bytes([got[0]]) * 8 and got[0] > last, (got, last)  # in order
            last = got[0]
            seen[got[0]] += 1
    # Every payload acknowledged was received, once; one whose every ACK was lost may have arrived too, once.
    assert all(seen[n] == 1 for n in range(60) if acked[n]) and max(seen) == 1
    assert 45 < sum(acked) < 60 and tx_chip.sent > 180 and rx_chip.duplicates > 5, \
        (sum(acked), tx_chip.sent, rx_chip.duplicates)
    assert 450 < air.lost * 1000 // air.packets < 550 and not tx_chip.errors and not rx_chip.errors


def test_the_air_is_the_same_for_the_same_seed():
    def run(seed):
        air = Air(seed, 500)
        return bytes([air._lost() for _ in range(200)])

    assert run(3) == run(3) != run(4)
    assert 60 < sum(run(3)) < 140


def test_receivers_must_share_channel_and_payload_width():
    air = Air()
    tx_chip = Chip(air)
    tx = radio(tx_chip, channel=76)
    tx.reg_write(_EN_AA, 0)
    tx.open_tx_pipe(b"Tx000")
    chips = [Chip(air) for _ in range(3)]
    for chip, (channel, width) in zip(chips, ((76, 32), (77, 32), (76, 16))):
        rx = radio(chip, channel=channel, payload_size=width)
        rx.open_rx_pipe(1, b"Tx000")
        rx.start_listening()
    tx.send(bytes(range(32)))
    assert [c.received for c in chips] == [1, 0, 0]  # another channel; a static width not the sender's (PS 7.4.1)
    assert chips[0].rx[0] == (1, bytes(range(32))) and chips[0].errors == []


def test_the_chip_reports_what_it_does_not_accept():
    chip = Chip(Air())
    chip.spi.write(b"\x00")
    chip.csn(0)
    chip.spi.write(b"\x50\x73")  # ACTIVATE: the nRF24L01's, not the nRF24L01+'s
    chip.csn(1)
    assert chip.errors == ["SPI clocked with CSN high", "command 0x50: not one this model has"]
