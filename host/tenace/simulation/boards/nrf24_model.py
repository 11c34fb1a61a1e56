"""An nRF24L01+ register model on an emulated SPI bus, and the air between several (no device has it: it emulates one).

The reference is the nRF24L01+ Product Specification v1.0 (Nordic, 2008), cited "PS 8.3.1" below. What is modelled
is what micropython-lib's nrf24l01 driver drives: the registers (PS 9.1), the SPI commands it sends (PS 8.3.1, with
R_RX_PL_WID), the 3-level TX and RX FIFOs (PS 8.4), STATUS and its interrupt bits (PS 8.5), CE and CSN, the operating
modes (PS 6.1), static and dynamic payload widths (PS 7.4.1), the pipes and their addresses (PS 7.6), the packet
identity that drops a retransmitted packet (PS 7.3.3.2) and Enhanced ShockBurst's auto-acknowledgement and
auto-retransmission as configured by EN_AA and SETUP_RETR (PS 7.5). A transmission is carried out at once, when CE
rises: no air time passes. Anything the chip would not accept, or a command it does not know, is kept in `errors`.

Runs under CPython and the MicroPython unix port alike (the board tests run it in both; the emulated RP2040's board,
tools/chip_board.py, on CPython), hence no typing at run time.
"""

from micropython import const

# Registers (PS 9.1, table 28).
_CONFIG = const(0x00)
_EN_AA = const(0x01)
_EN_RXADDR = const(0x02)
_SETUP_AW = const(0x03)
_SETUP_RETR = const(0x04)
_RF_CH = const(0x05)
_RF_SETUP = const(0x06)
_STATUS = const(0x07)
_OBSERVE_TX = const(0x08)
_RX_ADDR_P0 = const(0x0A)
_RX_ADDR_P1 = const(0x0B)
_TX_ADDR = const(0x10)
_RX_PW_P0 = const(0x11)
_FIFO_STATUS = const(0x17)
_DYNPD = const(0x1C)
_FEATURE = const(0x1D)
_REGISTERS = const(0x1E)

# CONFIG bits; STATUS's interrupt bits, written 1 to clear (PS 8.5); FEATURE's EN_DPL.
_EN_CRC = const(0x08)
_CRCO = const(0x04)
_PWR_UP = const(0x02)
_PRIM_RX = const(0x01)
RX_DR = const(0x40)
TX_DS = const(0x20)
MAX_RT = const(0x10)
_IRQS = const(0x70)  # the IRQ pin is not modelled: the boards leave it unconnected and poll STATUS
_EN_DPL = const(0x04)
_RF_DR = const(0x28)  # RF_SETUP's RF_DR_LOW and RF_DR_HIGH: the air data rate (PS 6.3.2)

# Commands (PS 8.3.1, table 20).
_R_REGISTER = const(0x00)
_W_REGISTER = const(0x20)
_R_RX_PL_WID = const(0x60)
_R_RX_PAYLOAD = const(0x61)
_W_TX_PAYLOAD = const(0xA0)
_FLUSH_TX = const(0xE1)
_FLUSH_RX = const(0xE2)
_NOP = const(0xFF)

_LEVELS = const(3)  # each FIFO holds 3 payloads (PS 8.4)
_MAX_PAYLOAD = const(32)
_MAX_SPI_HZ = const(10_000_000)  # PS 8.3.2: 0-10 Mbps

# Reset values of the one-byte registers (PS 9.1): CONFIG 0x08, EN_AA 0x3F, EN_RXADDR 0x03, SETUP_AW 0x03,
# SETUP_RETR 0x03, RF_CH 0x02, RF_SETUP 0x0E, RX_ADDR_P2..P5 0xC3..0xC6; the rest 0 (STATUS and FIFO_STATUS are
# computed from the FIFOs when read).
_RESET = b"\x08\x3f\x03\x03\x03\x02\x0e\x00\x00\x00\x00\x00\xc3\xc4\xc5\xc6"


class Pin:
    """machine.Pin's output side as the driver uses it (init, calling it), wired to a chip's CE or CSN input."""

    OUT = 1

    def __init__(self, changed, level):
        self._changed = changed
        self.level = level

    def init(self, mode=-1, value=None):
        if value is not None:
            self(value)

    def __call__(self, v):
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self._changed(v)


class Air:
    """2.4 GHz between chips: each packet, and each ACK, is lost with probability loss/1000, drawn from a seeded
    xorshift32 (the same draws on CPython and MicroPython). ACKs from two receivers at once collide and are lost."""

    def __init__(self, seed=1, loss=0):
        self.chips = []
        self.loss = loss
        self._x = (seed & 0xFFFFFFFF) or 1
        self.packets = 0  # packets put on the air, ACKs included
        self.lost = 0

    def _lost(self):
        self.packets += 1
        if not self.loss:
            return False
        x = self._x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._x = x
        if x % 1000 < self.loss:
            self.lost += 1
            return True
        return False

    def transmit(self, sender, packet):
        """Send `packet` (settings, address, PID, payload: Chip._send) to every other chip; True when one ACK came
        back to the sender."""
        acks = 0
        for chip in self.chips:
            if chip is not sender and not self._lost() and chip.hear(packet):
                acks += 1
        if acks != 1:
            return False  # none, or ACKs colliding
        return not self._lost() and sender.hears_ack(packet)


class Chip:
    """One nRF24L01+: `spi` (the chip itself), `csn` and `ce` are what the driver is given; it joins `air`."""

    def __init__(self, air):
        self.errors = []
        self.regs = bytearray(_REGISTERS)
        self.regs[:len(_RESET)] = _RESET
        self.addr = [b"\xe7" * 5, b"\xc2" * 5]  # RX_ADDR_P0 and P1 (PS 9.1); TX_ADDR below
        self.tx_addr = b"\xe7" * 5
        self.flags = 0  # STATUS's RX_DR, TX_DS, MAX_RT
        self.rx = []  # (pipe, payload), oldest first
        self.tx = []  # (pid, payload), oldest first
        self.pid = 0  # the 2-bit packet identity of the last payload written (PS 7.3.3.2)
        # Per pipe, the (pid, payload) last received: a retransmission of it is dropped (pid -1: none yet).
        self.last = [(-1, b"")] * 6
        self.sent = 0  # packets sent, retransmissions included
        self.received = 0  # payloads put in the RX FIFO
        self.overflows = 0  # packets heard with the RX FIFO full, dropped (PS 8.4)
        self.duplicates = 0  # retransmissions of a payload already received, acknowledged and dropped
        self.spi = self  # machine.SPI's controller side, with this chip alone on the bus
        self.csn = Pin(self._csn_changed, 1)
        self.ce = Pin(self._ce_changed, 0)
        self._cmd = -1  # -1: CSN high; None: CSN low, no command byte yet
        self._data = bytearray()
        self._i = 0
        self.air = air
        air.chips.append(self)

    # --- machine.SPI (init, read, readinto, write): each byte clocked is exchanged with the chip
    def init(self, baudrate=1_000_000, polarity=0, phase=0, **_):
        if polarity or phase or baudrate > _MAX_SPI_HZ:  # PS 8.3.2: CPOL 0, CPHA 0, at most 10 MHz
            self.errors.append("SPI mode %d%d at %d Hz" % (polarity, phase, baudrate))

    def read(self, n, write=0x00):
        buf = bytearray(n)
        self.readinto(buf, write)
        return bytes(buf)

    def readinto(self, buf, write=0x00):
        for i in range(len(buf)):
            buf[i] = self.exchange(write)

    def write(self, buf):
        for b in buf:
            self.exchange(b)

    def rx_address(self, pipe):
        """Pipe `pipe`'s address, as wide as SETUP_AW says; pipes 2-5 share pipe 1's upper bytes (PS 7.6)."""
        width = self.regs[_SETUP_AW] + 2
        if pipe < 2:
            return self.addr[pipe][:width]
        return bytes([self.regs[_RX_ADDR_P0 + pipe]]) + self.addr[1][1:width]

    def listening(self):
        """RX mode: powered up, PRIM_RX and CE high (PS 6.1.6, table 15)."""
        return self.regs[_CONFIG] & (_PWR_UP | _PRIM_RX) == _PWR_UP | _PRIM_RX and self.ce.level == 1

    def status(self):
        """STATUS (PS 9.1): the interrupt flags, RX_P_NO (the pipe of the RX FIFO's oldest payload, 7 for none),
        TX_FULL."""
        pipe = self.rx[0][0] if self.rx else 7
        return self.flags | pipe << 1 | (1 if len(self.tx) == _LEVELS else 0)

    # --- SPI (PS 8.3): a transaction from CSN falling to CSN rising, the command byte first, STATUS shifted out
    def _csn_changed(self, level):
        if not level:
            self._cmd = None
            self._data = bytearray()
            self._i = 0
            return
        cmd = self._cmd
        self._cmd = -1
        if cmd is None:
            return
        data = self._data
        if cmd & 0xE0 == _W_REGISTER:
            self._write_register(cmd & 0x1F, data)
        elif cmd == _W_TX_PAYLOAD:
            if not 1 <= len(data) <= _MAX_PAYLOAD:
                self.errors.append("W_TX_PAYLOAD of %d bytes" % len(data))
            elif len(self.tx) == _LEVELS:
                self.errors.append("W_TX_PAYLOAD with the TX FIFO full")
            else:
                self.pid = (self.pid + 1) & 3  # each new payload a new PID; retransmissions keep it
                self.tx.append((self.pid, bytes(data)))
                if self.ce.level:
                    self._send()
        elif cmd == _R_RX_PAYLOAD and self.rx:
            self.rx.pop(0)  # deleted once read (PS 8.3.1)
        elif cmd == _FLUSH_TX:
            self.tx = []
        elif cmd == _FLUSH_RX:
            self.rx = []

    def exchange(self, byte):
        """One byte clocked on the bus: `byte` in on MOSI, the returned one out on MISO."""
        cmd = self._cmd
        if cmd == -1:
            self.errors.append("SPI clocked with CSN high")
            return 0xFF
        if cmd is None:  # the command byte: STATUS goes out meanwhile (PS 8.3.1)
            known = byte & 0xC0 == 0 or byte in (_R_RX_PL_WID, _R_RX_PAYLOAD, _W_TX_PAYLOAD, _FLUSH_TX, _FLUSH_RX,
                                                  _NOP)
            if not known:
                self.errors.append("command 0x%02x: not one this model has" % byte)
            self._cmd = byte
            return self.status()
        i = self._i
        self._i = i + 1
        if cmd & 0xE0 == _R_REGISTER:
            return self._read_register(cmd & 0x1F, i)
        if cmd == _R_RX_PAYLOAD:
            payload = self.rx[0][1] if self.rx else b""
            return payload[i] if i < len(payload) else 0
        if cmd == _R_RX_PL_WID:
            return len(self.rx[0][1]) if self.rx and not i else 0
        self._data.append(byte)  # W_REGISTER, W_TX_PAYLOAD: taken when CSN rises
        return 0

    def _read_register(self, reg, i):
        if reg in (_RX_ADDR_P0, _RX_ADDR_P1, _TX_ADDR):  # multi-byte registers, LSByte first (PS 8.3.1)
            value = self.tx_addr if reg == _TX_ADDR else self.addr[reg - _RX_ADDR_P0]
            return value[i] if i < 5 else 0
        if i:
            return 0
        if reg == _STATUS:
            return self.status()
        if reg == _FIFO_STATUS:  # TX_FULL, TX_EMPTY, RX_FULL, RX_EMPTY (PS 9.1)
            tx, rx = len(self.tx), len(self.rx)
            return (tx == _LEVELS) << 5 | (not tx) << 4 | (rx == _LEVELS) << 1 | (not rx)
        return self.regs[reg] if reg < _REGISTERS else 0

    def _write_register(self, reg, data):
        if not data:
            return
        if reg in (_RX_ADDR_P0, _RX_ADDR_P1, _TX_ADDR):  # LSByte first, as wide as SETUP_AW (PS 8.3.1)
            value = bytes(data[:5])
            if reg == _TX_ADDR:
                self.tx_addr = value
            else:
                self.addr[reg - _RX_ADDR_P0] = value
            return
        value = data[0]
        if reg == _STATUS:
            self.flags &= ~(value & _IRQS)  # write 1 to clear (PS 8.5)
        elif (reg in (_OBSERVE_TX, 0x09, _FIFO_STATUS) or 0x18 <= reg < _DYNPD or reg >= _REGISTERS  # read-only
              or (reg == _SETUP_AW and not value & 3) or (_RX_PW_P0 <= reg < _FIFO_STATUS and value > _MAX_PAYLOAD)):
            self.errors.append("W_REGISTER 0x%02x refused: %d" % (reg, value))  # or illegal (PS 9.1)
        else:
            if reg == _RF_CH:
                self.regs[_OBSERVE_TX] &= 0x0F  # PLOS_CNT is reset by writing RF_CH (PS 9.1)
            self.regs[reg] = value

    # --- modes (PS 6.1): CE rising in PTX with a payload in the TX FIFO sends it (a pulse sends one)
    def _ce_changed(self, level):
        if level and self.tx:
            self._send()

    def _send(self):
        regs = self.regs
        if regs[_CONFIG] & (_PWR_UP | _PRIM_RX) != _PWR_UP:
            return  # power down, or PRX: nothing is sent
        if self.flags & (TX_DS | MAX_RT):
            return  # the last packet's flag not yet cleared: real chips send, but the driver never does this
        pid, payload = self.tx[0]
        packet = (self._settings(), self.tx_addr[:regs[_SETUP_AW] + 2], pid, payload)  # on the air (PS 7.3)
        auto_ack = regs[_EN_AA] & 1  # the PTX takes ACKs on pipe 0 (PS 7.5.1, 7.6)
        retries = regs[_SETUP_RETR] & 0x0F if auto_ack else 0  # ARC (PS 7.5.2); ARD is time, not modelled
        for attempt in range(retries + 1):
            self.sent += 1
            acked = self.air.transmit(self, packet)
            if not auto_ack or acked:
                self.tx.pop(0)
                self.flags |= TX_DS
                self.regs[_OBSERVE_TX] = (regs[_OBSERVE_TX] & 0xF0) | attempt
                return
        # MAX_RT: the payload stays in the TX FIFO (PS 7.5.2); PLOS_CNT counts lost packets, up to 15
        lost = min(15, (regs[_OBSERVE_TX] >> 4) + 1)
        self.regs[_OBSERVE_TX] = lost << 4 | retries
        self.flags |= MAX_RT

    def _settings(self):
        """What a receiver must share with the sender to hear it: channel, data rate, CRC, address width."""
        regs = self.regs
        crc = regs[_CONFIG] & (_EN_CRC | _CRCO)
        if regs[_EN_AA] & 0x3F:
            crc |= _EN_CRC  # EN_CRC is forced high while auto-ack is on (PS 9.1, CONFIG)
        return (regs[_RF_CH], regs[_RF_SETUP] & _RF_DR, crc, regs[_SETUP_AW])

    def hear(self, packet):
        """A packet on the air: taken into the RX FIFO when this chip listens on its address; True when it sends an
        ACK back (PS 7.5.1)."""
        settings, address, pid, payload = packet
        if not self.listening() or settings != self._settings():
            return False
        regs = self.regs
        for pipe in range(6):
            if regs[_EN_RXADDR] >> pipe & 1 and self.rx_address(pipe) == address:
                break
        else:
            return False
        dynamic = regs[_FEATURE] & _EN_DPL and regs[_DYNPD] >> pipe & 1
        if not dynamic and len(payload) != regs[_RX_PW_P0 + pipe]:
            return False  # a static width other than the sender's: its CRC fails here (PS 7.4.1)
        if len(self.rx) == _LEVELS:
            self.overflows += 1
            return False  # no room: dropped, not acknowledged
        ack = regs[_EN_AA] >> pipe & 1
        if ack and self.last[pipe] == (pid, payload):
            self.duplicates += 1
            return True  # a retransmission of what it has: acknowledged again, not given twice (PS 7.3.3.2)
        self.last[pipe] = (pid, payload)
        self.rx.append((pipe, payload))
        self.received += 1
        self.flags |= RX_DR
        return bool(ack)

    def hears_ack(self, packet):
        """An ACK for `packet` reaches this PTX on pipe 0, whose address must be TX_ADDR (PS 7.5.1)."""
        return self.regs[_EN_RXADDR] & 1 and self.rx_address(0) == packet[1]


def radio(chip, channel=76, payload_size=32):
    """micropython-lib's NRF24L01 driver (imported as nrf24l01, as on the device) on `chip`'s SPI bus and pins."""
    from nrf24l01 import NRF24L01  # pyright: ignore[reportMissingImports]  (micropython-lib's, put beside it)

    return NRF24L01(chip.spi, chip.csn, chip.ce, channel, payload_size)
