"""Emulated buses for the terminals' board files: an I2C bus of machine.I2C's shape with models of an SSD1306 and a
PCF8574 on it, each decoding the bytes it receives as the chip's datasheet says. Runs on CPython and MicroPython
(the board tests; the emulated RP2040's board, tools/chip_board.py, feeds its SSD1306 model the chip's I2C writes).

The models check what a driver sends, not how it is written: a command byte the SSD1306 does not know, data
outside the addressed window, a write to an address nobody answers, are errors (recorded, or raised as the bus
would), and what reaches the display's RAM is what the panel would show.
"""

_ENODEV = 19  # machine.I2C raises OSError(ENODEV) when no device acknowledges its address


class FakeI2C:
    """machine.I2C's writing side (writeto, writevto) and readfrom_into, over device models keyed by address."""

    def __init__(self):
        self.devices = {}
        self.transactions = 0

    def attach(self, addr, device):
        self.devices[addr] = device
        return device

    def _device(self, addr):
        device = self.devices.get(addr)
        if device is None:
            raise OSError(_ENODEV)
        self.transactions += 1
        return device

    def writeto(self, addr, buf, stop=True):
        device = self._device(addr)
        device.start()
        device.feed(buf)  # (as it is: a model reads it at once, before the driver can reuse it)
        device.stop()
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        # One transaction: the buffers follow one another on the wire after the address.
        device = self._device(addr)
        device.start()
        n = 0
        for buf in vector:
            device.feed(buf)
            n += len(buf)
        device.stop()
        return n

    def readfrom_into(self, addr, buf, stop=True):
        self._device(addr).send(buf)

    def scan(self):
        return sorted(self.devices)


# SSD1306 commands that take argument bytes, and how many (datasheet, section 9, "Command Table").
_ARGS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window (horizontal/vertical mode)
    0x22: 2,  # page address window
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump (application note)
    0xA8: 1,  # multiplex ratio
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide ratio / oscillator frequency
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins hardware configuration
    0xDB: 1,  # VCOMH deselect level
}


def _single(cmd):
    """A one-byte SSD1306 command the chip knows."""
    return (cmd in (0xAE, 0xAF, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xC0, 0xC8, 0xE3)
            or 0x40 <= cmd <= 0x7F or 0xB0 <= cmd <= 0xB7 or cmd <= 0x1F)


class SSD1306Model:
    """A 128 x 64 SSD1306 on I2C: its command decoder, registers and display RAM (GDDRAM, 8 pages of 128 bytes).

    Each transaction starts with a control byte: Co (bit 7) set means one byte follows and then another control
    byte; Co clear means every following byte is of the kind D/C# (bit 6) says: commands or RAM data. A
    command's argument bytes may come in later transactions (the chip keeps its place), as drivers that send one
    byte per transaction do.
    """

    def __init__(self, width=128, height=64):
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages)
        self.on = False
        self.charge_pump = False
        self.mode = 2  # page addressing after reset
        self.mux = 63
        self.com_pins = 0x12
        self.contrast = 0x7F
        self.seg_remap = False
        self.com_reversed = False
        self.inverted = False
        self.cols = (0, width - 1)
        self.page_window = (0, self.pages - 1)
        self.col = 0
        self.page = 0
        self.commands = []  # the first KEPT complete commands (the start-up), each a tuple of its bytes
        self.command_count = 0
        self.errors = []  # what the chip would not understand or could not place
        self.data_writes = 0  # transactions (or Co-continued runs) that carried RAM data
        self.data_bytes = 0
        self._pending = None  # a command still waiting for argument bytes
        self._control = -1  # the control byte in force; -1: the next byte is a control byte
        self._after = 0  # bytes since that control byte

    KEPT = 64

    def receive(self, data):
        """One whole I2C transaction addressed to the chip."""
        self.start()
        self.feed(data)
        self.stop()

    def start(self):
        self._control = -1

    def feed(self, data):
        for b in data:
            control = self._control
            if control < 0:
                if b & 0x3F:
                    self.errors.append("control byte 0x%02x has bits other than Co and D/C#" % b)
                self._control = b
                self._after = 0
                continue
            if control & 0x40:
                if not self._after:
                    self.data_writes += 1
                self._data(b)
            else:
                self._command_byte(b)
            self._after += 1
            if control & 0x80:  # Co: one byte, then another control byte
                self._control = -1

    def stop(self):
        if self._control >= 0 and not self._after:
            self.errors.append("control byte 0x%02x with nothing after it" % self._control)

    def _command_byte(self, b):
        if self._pending is not None:
            self._pending.append(b)
            if len(self._pending) == _ARGS[self._pending[0]] + 1:
                self._apply(tuple(self._pending))
                self._pending = None
            return
        if b in _ARGS:
            self._pending = [b]
        elif _single(b):
            self._apply((b,))
        else:
            self.errors.append("unknown command 0x%02x" % b)

    def _apply(self, cmd):
        self.command_count += 1
        if len(self.commands) < self.KEPT:
            self.commands.append(cmd)
        op = cmd[0]
        if op == 0xAE or op == 0xAF:
            self.on = op == 0xAF
        elif op == 0x8D:
            self.charge_pump = bool(cmd[1] & 0x04)
        elif op == 0x20:
            self.mode = cmd[1] & 3
        elif op == 0x21:
            self.cols = (cmd[1] & 0x7F, cmd[2] & 0x7F)
            self.col = self.cols[0]
        elif op == 0x22:
            self.page_window = (cmd[1] & 7, cmd[2] & 7)
            self.page = self.page_window[0]
        elif op == 0xA8:
            self.mux = cmd[1] & 0x3F
        elif op == 0xDA:
            self.com_pins = cmd[1]
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op == 0xA0 or op == 0xA1:
            self.seg_remap = op == 0xA1
        elif op == 0xC0 or op == 0xC8:
            self.com_reversed = op == 0xC8
        elif op == 0xA6 or op == 0xA7:
            self.inverted = op == 0xA7
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7

    def _data(self, b):
        self.data_bytes += 1
        if self.mode != 0:
            # Page addressing (and vertical, which these terminals never use): the column wraps within the page.
            self.ram[self.page * self.width + self.col] = b
            self.col = (self.col + 1) % self.width
            return
        if not (self.cols[0] <= self.col <= self.cols[1] and self.page_window[0] <= self.page <= self.page_window[1]):
            self.errors.append("data outside the window at page %d column %d" % (self.page, self.col))
            return
        self.ram[self.page * self.width + self.col] = b
        # Horizontal addressing: the next column, then the next page, back to the window's start after its end.
        if self.col < self.cols[1]:
            self.col += 1
        else:
            self.col = self.cols[0]
            self.page = self.page + 1 if self.page < self.page_window[1] else self.page_window[0]

    def lit(self):
        """How many pixels of the RAM are on."""
        count = 0
        for b in self.ram:
            while b:
                count += b & 1
                b >>= 1
        return count


class PCF8574Model:
    """A PCF8574: a byte written sets its eight quasi-bidirectional lines (0 pulls low, 1 is a weak pull-up); a
    read gives the lines. `rows` are pins with value(v) (a simulated key matrix's rows), lines 0.. of the port."""

    def __init__(self, rows=()):
        self.rows = rows
        self.port = 0xFF  # the power-on state: every line high
        self.writes = 0
        self.errors = []
        self._got = False

    def start(self):
        self._got = False

    def feed(self, data):
        for b in data:  # (the chip takes several bytes in one transaction: the last one stays)
            self.port = b
            self.writes += 1
            self._got = True
        for i in range(len(self.rows)):
            self.rows[i].value((self.port >> i) & 1)

    def stop(self):
        if not self._got:
            self.errors.append("an empty write")

    def send(self, buf):
        for i in range(len(buf)):
            buf[i] = self.port
