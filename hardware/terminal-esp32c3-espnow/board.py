"""Board file: a table terminal on an ESP32-C3 SuperMini, SSD1306 OLED and PCF8574 keypad rows on I2C, ESP-NOW.

    ESP32-C3      to                               ESP32-C3      to
    GPIO6  SDA    OLED SDA, PCF8574 SDA            GPIO0   col 1 (keys 1 4 7 + A BACK)
    GPIO7  SCL    OLED SCL, PCF8574 SCL            GPIO1   col 2
    GPIO3  ADC1   battery divider midpoint         GPIO4   col 3
    3V3 / GND     OLED, PCF8574                    GPIO5   col 4
    PCF8574 P0-P5 keypad rows 1-6                  GPIO10  col 5
                                                   GPIO20  col 6

The SuperMini has 13 free GPIOs and the keypad alone needs 12 lines, so its six rows hang on a PCF8574 on the
display's I2C bus (ExpanderRows: hand-written, micropython-lib has no PCF8574 driver and this is three writes).
The strapping pins GPIO2, 8 (blue LED) and 9 (BOOT) stay free, so no key held at power-on changes the boot mode.
The ssd1306 driver comes from micropython-lib: `mpremote mip install ssd1306`. Copied to the device as
:board.py (hardware/README.md); wiring, parts and power budget in this folder's README.md.
"""

from tenace_radio.espnow_transport import CHANNEL, RXBUF, EspNowTransport
from tenace_terminal.app import App
from tenace_terminal.battery import percent_of
from tenace_terminal.key_matrix import KeyMatrix
from tenace_terminal.keypad_layout import FACTORY_CHORD, LAYOUT
from tenace_terminal.settings_file import read_settings
from tenace_terminal.text_display import TextDisplay

PORT = "esp32"  # its MicroPython port, as sys.platform says (the C3 runs the esp32 port's ESP32_GENERIC_C3 build)
I2C_ID = 0
SDA = 6
SCL = 7
I2C_HZ = 400_000
OLED_ADDR = 0x3C
EXPANDER_ADDR = 0x20  # PCF8574 with A0-A2 to GND (a PCF8574A is 0x38)
COL_PINS = (0, 1, 4, 5, 10, 20)
BATTERY_PIN = 3  # ADC1 (ADC2 cannot be read while the radio is on)
DIVIDER = 2  # the cell through 100k + 100k: the ADC sees half its voltage
STORAGE = "/journal"
CONFIG = "/terminal.cfg"  # "id=12" and "channel=1", a line each: written when the terminal is flashed

class Battery:
    """battery.percent() for the app, from an ADC (machine.ADC with 11 dB attenuation) behind the divider."""

    def __init__(self, adc, reads: int = 8) -> None:
        self.adc = adc
        self.reads = reads

    def millivolts(self) -> int:
        total = 0
        for _ in range(self.reads):  # the radio's bursts make single readings jump by tens of mV
            total += self.adc.read_uv()  # calibrated by the chip's eFuse values, unlike read_u16()
        return total * DIVIDER // (self.reads * 1000)

    def percent(self) -> int:
        return percent_of(self.millivolts())


class ExpanderRow:
    """One PCF8574 line as a keypad row pin: value(0) pulls it low, value(1) lets the chip's weak pull-up hold it
    high, which is the open drain the scanner wants (two keys in a column never short two rows)."""

    def __init__(self, rows: "ExpanderRows", bit: int) -> None:
        self.rows = rows
        self.mask = 1 << bit

    def value(self, v=None):
        if v is None:
            return 1 if self.rows.state & self.mask else 0
        self.rows.write(self.rows.state | self.mask if v else self.rows.state & ~self.mask)
        return None


class ExpanderRows:
    """The six keypad rows on a PCF8574 at `addr`: one byte written per change, lines 6 and 7 left high."""

    def __init__(self, i2c, addr: int = EXPANDER_ADDR, count: int = 6) -> None:
        self.i2c = i2c
        self.addr = addr
        self._byte = bytearray(1)  # written in place: no allocation per scan
        self.state = 0
        self.write(0xFF)
        self.pins = [ExpanderRow(self, b) for b in range(count)]

    def write(self, state: int) -> None:
        self.state = state & 0xFF
        self._byte[0] = self.state
        self.i2c.writeto(self.addr, self._byte)


def factory_test_or_session(app: App, keypad: KeyMatrix) -> App:
    """The factory test (screens/factory.py) instead of the session when FACTORY_CHORD is held at power-on."""
    held = keypad.held()
    if FACTORY_CHORD[0] in held and FACTORY_CHORD[1] in held:
        app.go("factory")
    return app


def build(i2c, cols, esp, adc, clock, terminal: int, storage: str = STORAGE,
          club=None) -> App:
    """The terminal app over its devices: `i2c` carries the SSD1306 and the PCF8574, `cols` are the six column pins
    (inputs with pull-ups), `esp` an active espnow.ESPNow, `adc` the battery's, `clock` ticks_ms/sleep_ms (time).
    main() passes the real ones; the tests pass emulations of the same shape (tests/hardware)."""
    import os

    from ssd1306 import SSD1306_I2C  # pyright: ignore[reportMissingImports]  (micropython-lib, installed by mip)

    try:  # noqa: SIM105  (MicroPython has no contextlib)
        os.mkdir(storage)
    except OSError:
        pass  # there already: the journal of the last power-on is in it
    # The 2.42" module's SSD1309 has no charge pump: its own boost converter feeds the panel (VCC), so the driver is
    # told so (pre-charge for an external VCC, the SSD1306's charge pump command sent as off). Nothing else differs.
    display = TextDisplay(SSD1306_I2C(128, 64, i2c, OLED_ADDR, external_vcc=True))
    keypad = KeyMatrix(ExpanderRows(i2c).pins, cols, clock, LAYOUT)
    battery = Battery(adc)
    from tenace_terminal.build import build_terminal  # once: its code is garbage once the app is made

    # club: the key tenace flash wrote
    app = build_terminal(EspNowTransport(esp), terminal, keypad, display, clock, storage, battery, club=club)
    return factory_test_or_session(app, keypad)


class SleepyRadio:
    """An active espnow.ESPNow whose receiver the link turns off between its windows (power(on), wire_link.py's
    sleepy link): ESP-NOW without an access point has no power save of its own (the WLAN's pm works only
    associated), so power(False) stops the Wi-Fi (WLAN.active(False): the RF off, 64 mA less) and power(True)
    starts it again on the event's channel. ESP-NOW and its peer stay registered (not deinitialised: its receive
    buffer is not freed and allocated again every window); a frame that comes while the Wi-Fi is stopped is lost,
    and the host sends it again when the terminal next speaks. Not yet measured on a built terminal: how long the
    Wi-Fi takes to start is the power.toml's radio.wakes estimate."""

    def __init__(self, sta, esp, channel: int) -> None:
        self.sta = sta
        self.esp = esp
        self.channel = channel
        self.on = True

    def power(self, on: bool) -> None:
        self.on = on
        if on:
            self.sta.active(True)
            self.sta.config(channel=self.channel)
        else:
            self.sta.active(False)

    def add_peer(self, mac: bytes) -> None:
        self.esp.add_peer(mac)

    def send(self, mac: bytes, msg, sync: bool = True):
        return self.esp.send(mac, msg, sync)

    def irecv(self, timeout_ms=None):
        return self.esp.irecv(timeout_ms)

    @property
    def peers_table(self):
        return self.esp.peers_table


class SleepyClock:
    """The app's clock: time's ticks_ms and sleep_ms, and lightsleep(ms) for the idle passes, which is
    machine.lightsleep (about 130 µA against 16 mA idle) only while the radio's Wi-Fi is stopped: light sleep
    powers the RF down, so inside a listening window the pass waits in sleep_ms."""

    def __init__(self, time, lightsleep, radio: SleepyRadio) -> None:
        self.ticks_ms = time.ticks_ms
        self.sleep_ms = time.sleep_ms
        self._lightsleep = lightsleep
        self.radio = radio

    def lightsleep(self, ms: int) -> None:
        if self.radio.on:
            self.sleep_ms(ms)
        else:
            self._lightsleep(ms)


def espnow_radio(channel: int):
    """An active espnow.ESPNow on the event's Wi-Fi channel (as the base station's board file makes it), in a
    SleepyRadio."""
    import espnow
    import network

    sta = network.WLAN(network.WLAN.IF_STA)
    sta.active(True)
    sta.config(channel=channel)  # no access point: the channel is the event's, the same on every node
    esp = espnow.ESPNow()
    esp.config(rxbuf=RXBUF)  # before active(True), which allocates the buffer
    esp.active(True)
    return SleepyRadio(sta, esp, channel)


def main() -> None:
    """Start the terminal on this wiring and run it until the power goes."""
    import time

    from machine import ADC, I2C, Pin, lightsleep

    config = read_settings(CONFIG, CHANNEL)
    i2c = I2C(I2C_ID, sda=Pin(SDA), scl=Pin(SCL), freq=I2C_HZ)
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COL_PINS]
    adc = ADC(Pin(BATTERY_PIN), atten=ADC.ATTN_11DB)
    radio = espnow_radio(config["channel"])
    app = build(i2c, cols, radio, adc, SleepyClock(time, lightsleep, radio), config["id"],
                club=config.get("club"))
    from tenace_terminal.power import run  # the display off when idle, the processor asleep where the radio allows

    run(app)
