"""Board file: a table terminal on a Raspberry Pi Pico, SSD1306 OLED on I2C0, keypad on 12 GPIOs, nRF24L01+ on SPI0.

    Pico            to                        Pico            to
    GP4  (pin 6)    OLED SDA (I2C0)           GP6-GP11        keypad rows 1-6 (pins 9 10 11 12 14 15)
    GP5  (pin 7)    OLED SCL (I2C0)           GP12-GP15       keypad cols 1-4 (pins 16 17 19 20)
    GP18 (pin 24)   nRF24 SCK (SPI0)          GP21 (pin 27)   keypad col 5
    GP19 (pin 25)   nRF24 MOSI                GP22 (pin 29)   keypad col 6
    GP16 (pin 21)   nRF24 MISO                GP29 (ADC3)     VSYS / 3 on the board itself: the battery
    GP17 (pin 22)   nRF24 CSN                 3V3(OUT) pin 36 OLED and nRF24 VCC (never 5 V)
    GP20 (pin 26)   nRF24 CE                  VSYS pin 39     the cell, through the charger and a Schottky diode

The nRF24 wiring is the base station's (hardware/base-pico-nrf24). Use a plain Pico: on a Pico W, GP29 is shared with
the wireless chip. The nrf24l01 and ssd1306 drivers come from micropython-lib: `mpremote mip install nrf24l01 ssd1306`.
Copied to the device as :board.py (hardware/README.md); wiring, parts and power budget in this folder's README.md.
"""

from tenace_radio.nrf24_transport import CHANNEL, PAYLOAD_SIZE, terminal_transport
from tenace_terminal.app import App
from tenace_terminal.battery import percent_of
from tenace_terminal.key_matrix import KeyMatrix
from tenace_terminal.keypad_layout import FACTORY_CHORD, LAYOUT
from tenace_terminal.settings_file import read_settings
from tenace_terminal.text_display import TextDisplay

PORT = "rp2"  # its MicroPython port, as sys.platform says: base_main checks it, the tests use its stubs
I2C_ID = 0
SDA = 4
SCL = 5
I2C_HZ = 400_000
OLED_ADDR = 0x3C
ROW_PINS = (6, 7, 8, 9, 10, 11)
COL_PINS = (12, 13, 14, 15, 21, 22)
SPI_ID = 0
SCK = 18
MOSI = 19
MISO = 16
CSN = 17
CE = 20
BATTERY_PIN = 29  # ADC3: VSYS through the Pico's own 200k/100k divider
DIVIDER = 3
VREF_MV = 3300  # the ADC's reference is the 3V3 rail
STORAGE = "/journal"
CONFIG = "/terminal.cfg"  # "id=12" and "channel=76", a line each: written when the terminal is flashed

class Battery:
    """battery.percent() for the app, from machine.ADC(29): VSYS / 3 against the 3.3 V reference."""

    def __init__(self, adc, diode_mv: int = 0, reads: int = 8) -> None:
        self.adc = adc
        self.diode_mv = diode_mv  # the Schottky diode's drop between the cell and VSYS, added back
        self.reads = reads

    def millivolts(self) -> int:
        total = 0
        for _ in range(self.reads):  # the SMPS ripple on VSYS makes single readings jump
            total += self.adc.read_u16()
        return total * VREF_MV * DIVIDER // (self.reads * 65535) + self.diode_mv

    def percent(self) -> int:
        return percent_of(self.millivolts())


class SleepyClock:
    """The app's clock: time's ticks_ms and sleep_ms, and machine.lightsleep for its idle passes. The RP2040 sleeps
    at about 1.5 mA instead of 20 while the nRF24 goes on listening by itself (its RX FIFO holds three payloads)
    and the timer keeps the ticks."""

    def __init__(self, time, lightsleep) -> None:
        self.ticks_ms = time.ticks_ms
        self.sleep_ms = time.sleep_ms
        self.lightsleep = lightsleep


def factory_test_or_session(app: App, keypad: KeyMatrix) -> App:
    """The factory test (screens/factory.py) instead of the session when FACTORY_CHORD is held at power-on."""
    held = keypad.held()
    if FACTORY_CHORD[0] in held and FACTORY_CHORD[1] in held:
        app.go("factory")
    return app


def build(i2c, rows, cols, nrf, adc, clock, terminal: int, storage: str = STORAGE,
          club=None) -> App:
    """The terminal app over its devices: `i2c` carries the SSD1306, `rows` (open drain) and `cols` (pull-ups) the
    keypad, `nrf` a micropython-lib NRF24L01 made with payload_size=PAYLOAD_SIZE, `adc` the battery's, `clock`
    ticks_ms/sleep_ms (time). main() passes the real ones; the tests pass emulations of the same shape."""
    import os

    from ssd1306 import SSD1306_I2C  # pyright: ignore[reportMissingImports]  (micropython-lib, installed by mip)

    try:  # noqa: SIM105  (MicroPython has no contextlib)
        os.mkdir(storage)
    except OSError:
        pass  # there already: the journal of the last power-on is in it
    # The 2.42" module's SSD1309 has no charge pump: its own boost converter feeds the panel (VCC), so the driver is
    # told so (pre-charge for an external VCC, the SSD1306's charge pump command sent as off). Nothing else differs.
    display = TextDisplay(SSD1306_I2C(128, 64, i2c, OLED_ADDR, external_vcc=True))
    keypad = KeyMatrix(rows, cols, clock, LAYOUT)
    battery = Battery(adc, diode_mv=200)
    from tenace_terminal.build import build_terminal  # once: its code is garbage once the app is made

    # club: the key tenace flash wrote
    app = build_terminal(terminal_transport(nrf), terminal, keypad, display, clock, storage, battery, club=club)
    return factory_test_or_session(app, keypad)


def nrf24_radio(channel: int):
    """The nRF24L01+ driver on this wiring, with 32-byte payloads."""
    from machine import SPI, Pin
    from nrf24l01 import NRF24L01  # pyright: ignore[reportMissingImports]  (micropython-lib, installed by mip)

    spi = SPI(SPI_ID, sck=Pin(SCK), mosi=Pin(MOSI), miso=Pin(MISO))
    return NRF24L01(spi, Pin(CSN, Pin.OUT, value=1), Pin(CE, Pin.OUT, value=0), channel, PAYLOAD_SIZE)


def main(run=None) -> None:
    """Start the terminal on this wiring and run it until the power goes. `run(app)` is its loop: power.run, unless
    a harness brings its own (the emulated RP2040's, with a scripted player: tools/rp2040/chip_terminal.py)."""
    import time

    from machine import ADC, I2C, Pin, lightsleep

    config = read_settings(CONFIG, CHANNEL)
    i2c = I2C(I2C_ID, sda=Pin(SDA), scl=Pin(SCL), freq=I2C_HZ)
    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in ROW_PINS]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COL_PINS]
    clock = SleepyClock(time, lightsleep)
    app = build(i2c, rows, cols, nrf24_radio(config["channel"]), ADC(BATTERY_PIN), clock, config["id"],
                club=config.get("club"))
    if run is None:
        from tenace_terminal.power import run  # the display off when idle, the processor asleep where the radio allows
    run(app)
