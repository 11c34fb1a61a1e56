"""A terminal board file's build() on emulated buses: the SSD1306's start-up and RAM, keys through the matrix (and
the PCF8574), the battery reading, the radio driver's set-up, the factory test (BACK and OK held at power-on).
Runs on CPython (test_board_buses.py) and on the MicroPython unix port (mp_runner), once per board file, which is
imported as `board` as on the device.
"""

import gc

import board
from bus_models import FakeI2C, PCF8574Model, SSD1306Model
from fake_matrix import FakeMatrix, TicksClock
from sim_devices import new_directory, remove_directory
from tenace_terminal import font
from tenace_terminal.keypad_layout import LAYOUT, all_keys

from tenace_wire.auth import NONCE_SIZE
from tenace_wire.control import PairOffer
from tenace_wire.frame import encode_frame
from tenace_wire.frame_types import HELLO, PAIR_OFFER
from tenace_wire.session import NO_KEY

from checks import raises

TERMINAL = 7
CELL_MV = 3820  # 50 % on the boards' Li-ion curve
BASE_MAC = b"\x02\x00\x00\x00\x00\x01"


class FakeADC:
    """machine.ADC: read_uv() (esp32, calibrated) and read_u16(); the voltage at the pin in microvolts."""

    def __init__(self, uv=0):
        self.uv = uv
        self.reads = 0

    def read_uv(self):
        self.reads += 1
        return self.uv

    def read_u16(self):
        self.reads += 1
        return self.uv * 65535 // (board.VREF_MV * 1000)


def pin_uv(cell_mv):
    """What the board's battery ADC pin sees when the cell is at `cell_mv`."""
    if board.PORT == "esp32":
        return cell_mv * 1000 // board.DIVIDER
    return (cell_mv - 200) * 1000 // board.DIVIDER + 400  # behind the diode; +0.4 mV: the floor of read_u16


class Rig:
    """The board's app built over an emulated I2C bus, a simulated key matrix, a radio (a fake ESP-NOW, or the real
    nrf24l01 driver on a chip model) with a base station on the same air, and a fake ADC."""

    def __init__(self, held=(), storage=None):
        self.storage = storage or new_directory()
        self.bus = FakeI2C()
        self.oled = self.bus.attach(board.OLED_ADDR, SSD1306Model())
        self.matrix = FakeMatrix(LAYOUT)
        self.matrix.press(*held)  # keys held while the power comes on
        self.clock = TicksClock(1000)
        self.adc = FakeADC(pin_uv(CELL_MV))
        if board.PORT == "esp32":
            from fake_espnow import Air, FakeEspNow
            from tenace_radio.espnow_transport import EspNowTransport

            self.expander = self.bus.attach(board.EXPANDER_ADDR, PCF8574Model(self.matrix.rows))
            air = Air()
            self.radio = FakeEspNow(air, b"\x02\x00\x00\x00\x00\x07")
            self.base = EspNowTransport(FakeEspNow(air, BASE_MAC))
            self.app = board.build(self.bus, self.matrix.cols, self.radio, self.adc, self.clock, TERMINAL,
                                   self.storage)
        else:
            from nrf24_model import Air, Chip, radio
            from tenace_radio.nrf24_transport import base_station_transport

            # micropython-lib's driver on a register model of the chip, a base station's on another: one air
            self.expander = None
            air = Air()
            self.chip = Chip(air)
            self.radio = radio(self.chip)
            self.base = base_station_transport(radio(Chip(air)))
            self.app = board.build(self.bus, self.matrix.rows, self.matrix.cols, self.radio, self.adc, self.clock,
                                   TERMINAL, self.storage)

    def run(self, ms):
        """The app's loop for `ms` milliseconds, a step every 5 ms."""
        for _ in range(ms // 5):
            self.app.step()
            self.clock.now += 5

    def tap(self, name):
        """A finger on key `name`: down for 40 ms (twice the debounce), then up for 40 ms."""
        self.matrix.press(name)
        self.run(40)
        self.matrix.release(name)
        self.run(40)

    def heard_by_base(self):
        """The frames the base station heard from the terminal since last asked."""
        out = []
        frame = self.base.recv()
        while frame is not None:
            out.append(frame)
            frame = self.base.recv()
        return out

    def keys(self, ms):
        """Read the keypad every 5 ms for `ms` milliseconds: the keys it gave."""
        got = []
        for _ in range(ms // 5):
            key = self.app.keypad.read()
            if key is not None:
                got.append(key)
            self.clock.now += 5
        return got

    def close(self):
        remove_directory(self.storage)


def test_start_up_sequence():
    rig = Rig()
    try:
        oled = rig.oled
        assert oled.errors == [], oled.errors
        # Lit, horizontal addressing, and driven as the 2.42" SSD1309 needs: it has no charge pump (the module's boost
        # converter feeds the panel), so the SSD1306 driver is made with external_vcc (charge pump off, pre-charge 2+2).
        assert oled.on and not oled.charge_pump and oled.mode == 0
        assert oled.mux == 63 and oled.com_pins == 0x12  # all 64 lines of a 128 x 64 panel
        assert oled.seg_remap and oled.com_reversed  # column 0 at the left, page 0 at the top of the module
        assert oled.commands[0] == (0xAE,)  # off while it is set up
        on = oled.commands.index((0xAF,))
        assert (0x8D, 0x10) in oled.commands[:on] and (0xD9, 0x22) in oled.commands[:on]  # (0x14 and 0xF1: internal)
    finally:
        rig.close()


def test_the_screen_reaches_the_panel():
    rig = Rig()
    try:
        app = rig.app
        app.step()
        oled = rig.oled
        assert oled.errors == [], oled.errors
        assert oled.data_bytes and oled.data_bytes % 1024 == 0  # each show() wrote the whole RAM, in one go
        assert oled.ram == app.display.fb.buffer
        assert oled.lit() > 200, oled.lit()  # the start-up screen's text
        writes = oled.data_writes
        app.display.clear()
        app.display.text(0, 0, "A")
        app.display.show()
        assert oled.data_writes == writes + 1 and oled.errors == []
        glyph = font.DATA[font.index(ord("A")) * 6:font.index(ord("A")) * 6 + 6]
        assert bytes(oled.ram[1:7]) == bytes(glyph)  # cell (0, 0) is page 0, columns 1-6
        assert oled.lit() == sum([bin(b).count("1") for b in glyph])
    finally:
        rig.close()


def test_keys_through_the_board_keypad():
    rig = Rig()
    try:
        for name in ("4", "S", "BACK", "OK", "DOWN", "PASS"):
            rig.matrix.press(name)
            assert rig.keys(40) == [name], name
            rig.matrix.release(name)
            assert rig.keys(40) == [], name
        rig.matrix.press("K", "H")  # two keys at once: both, once each
        assert rig.keys(60) == ["H", "K"]
        rig.matrix.release("K", "H")
        assert rig.matrix.most_rows_low == 1  # one row driven at a time, through the expander or the pins
        assert [pin.level for pin in rig.matrix.rows] == [1] * len(LAYOUT)
        if rig.expander is not None:
            assert rig.expander.errors == [] and rig.expander.port == 0xFF and rig.expander.writes > 100
    finally:
        rig.close()


def test_battery_reading():
    rig = Rig()
    try:
        battery = rig.app.battery
        assert battery.percent() == 50 and rig.adc.reads >= 8
        for cell_mv, percent in ((4250, 100), (4200, 100), (3920, 70), (3750, 23), (3680, 10), (3000, 0),
                                 (2800, 0)):
            rig.adc.uv = pin_uv(cell_mv)
            assert abs(battery.millivolts() - cell_mv) <= 2, (cell_mv, battery.millivolts())
            assert board.percent_of(cell_mv) == percent, (cell_mv, board.percent_of(cell_mv))
        rig.adc.uv = pin_uv(3650)
        assert battery.percent() == 9
    finally:
        rig.close()


def test_radio_set_up():
    rig = Rig()
    try:
        transport = rig.app.link.transport
        if board.PORT == "esp32":
            assert rig.radio.peers == [b"\xff\xff\xff\xff\xff\xff"]  # every node on the broadcast peer
        else:
            chip = rig.chip
            assert chip.regs[0x01] == 0 and chip.listening()  # the chip's auto-ack off, hearing the base
            assert chip.rx_address(1) == b"TnDn0" and chip.regs[0x02] == 2 and chip.errors == []
        frame = bytes(range(20))
        transport.send(frame)
        assert (rig.radio if board.PORT == "esp32" else rig.chip).sent == 1
    finally:
        rig.close()


def test_bus_errors():
    bus = FakeI2C()
    oled = bus.attach(0x3C, SSD1306Model())
    assert raises(OSError, bus.writeto, 0x3D, b"\x80\xaf") is not None  # nobody at 0x3D: no acknowledge
    oled.receive(b"\x80\x21\x80\x10\x80\x1f")  # a command's arguments in later single-byte transactions
    oled.receive(b"\x00\x22\x02\x03")  # and a run of command bytes after one control byte
    assert oled.cols == (0x10, 0x1F) and oled.page_window == (2, 3) and oled.errors == []
    oled.receive(b"\x00\x20\x00")  # horizontal addressing: 16 columns x 2 pages = 32 bytes fill the window
    oled.receive(b"\x40" + bytes(range(1, 33)))
    assert oled.ram[2 * 128 + 0x10] == 1 and oled.ram[3 * 128 + 0x1F] == 32 and oled.errors == []
    assert oled.col == 0x10 and oled.page == 2  # back to the window's start
    oled.receive(b"\x80\xfe")
    oled.receive(b"\x80")
    assert oled.errors == ["unknown command 0xfe", "control byte 0x80 with nothing after it"], oled.errors


def kept(storage):
    """The factory test's result as kept on flash, its words."""
    with open(storage + "/factory.txt") as f:
        return f.read().split()


def cell_lit(oled, col, row):
    """Pixels lit in the text cell (col, row) of the panel: 6 columns of page `row`, from column 1."""
    start = row * 128 + 1 + col * 6
    return sum([bin(b).count("1") for b in oled.ram[start:start + 6]])


def test_factory_test_passes():
    storage = new_directory()
    try:
        _factory_test_passes(storage)
        gc.collect()  # the first power-on's rig is gone: two at once would not fit MicroPython's test heap
        again = Rig(storage=storage)  # powered on again, no chord: the session's start, the result still there
        assert again.app.screen_name == "startup" and kept(storage)[:2] == ["1", "15"]
    finally:
        remove_directory(storage)


def _factory_test_passes(storage):
    rig = Rig(held=("BACK", "OK"), storage=storage)
    app = rig.app
    rig.run(60)  # the chord's keys count as seen: they were pressed
    assert app.screen_name == "factory"
    rig.matrix.release("BACK", "OK")
    rig.run(40)
    oled = rig.oled
    assert cell_lit(oled, 0, 6) > 24 and cell_lit(oled, 12, 6) > 24  # BACK and OK shown inverse (pressed)
    assert cell_lit(oled, 0, 1) < 24  # "1" not yet: its glyph alone (inverse: more than half the cell lit)
    keys = [k for k in all_keys() if k not in ("BACK", "OK")]
    for name in keys[:-1]:
        rig.tap(name)
    assert app.screen.stage == 0 and cell_lit(oled, 0, 1) > 24
    rig.tap(keys[-1])
    assert app.screen.stage == 1
    assert oled.lit() > 7 * 126 * 8, oled.lit()  # the display pattern: every cell lit
    rig.matrix.press("OK")  # no dark pixel
    hellos = []
    for _ in range(20):
        rig.run(5)
        hellos += [f for f in rig.heard_by_base() if f[0] & 0x1F == HELLO]
        if hellos:
            break
    assert len(hellos) == 1 and not hellos[0][0] & 0x80  # the radio check's call, from the terminal
    rig.matrix.release("OK")
    rig.run(30)  # the collector takes 30 ms to answer
    offer = PairOffer(nonce=bytes(NONCE_SIZE)).encode()
    rig.base.send(encode_frame(NO_KEY, True, PAIR_OFFER, TERMINAL, 1, offer))
    rig.run(20)
    screen = app.screen
    assert screen.stage == 3 and screen.checks == 15 and 30 <= screen.ms <= 40, (screen.stage, screen.ms)
    with open(storage + "/factory.txt") as f:
        words = f.read().split()
    assert words[:2] == ["1", "15"] and int(words[2]) == screen.ms and abs(int(words[3]) - CELL_MV) <= 2
    if board.PORT == "esp32":  # the base station's signal as ESP-NOW measured it
        rig.radio.peers_table = {BASE_MAC: [-48, 0]}
        assert app.link.transport.rssi() == -48
    rig.tap("OK")
    assert app.screen_name == "startup"


def test_factory_test_fails():
    rig = Rig(held=("BACK", "OK"))
    try:
        app = rig.app
        rig.run(60)
        rig.matrix.release("BACK", "OK")
        rig.run(40)
        rig.tap("1")
        rig.tap("BACK")
        rig.tap("BACK")
        assert app.screen.stage == 0  # twice is not enough
        rig.tap("BACK")  # three times running: the key check given up, failed
        assert app.screen.stage == 1
        rig.tap("BACK")  # a dark pixel seen
        rig.adc.uv = pin_uv(2800)  # a flat cell
        hellos = 0
        for _ in range(6):  # nobody answers the radio for 5.1 s (the base station heard, its FIFO read)
            rig.run(850)
            hellos += len([f for f in rig.heard_by_base() if f[0] & 0x1F == HELLO])
        screen = app.screen
        assert screen.stage == 3 and screen.checks == 0 and screen.ms == -1
        assert hellos == 5  # once a second
        assert kept(rig.storage)[:3] == ["2", "0", "-1"] and app.faults == 0
    finally:
        rig.close()
