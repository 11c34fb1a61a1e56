"""Board file: a Raspberry Pi Pico as base station, an nRF24L01+ on SPI0 to the terminals, USB serial to the laptop.

    nRF24L01+   Pico
    VCC         3V3(OUT), pin 36 (never 5 V)        GND   GND, pin 38
    SCK         GP18 (SPI0 SCK), pin 24             MOSI  GP19 (SPI0 TX), pin 25
    MISO        GP16 (SPI0 RX), pin 21              CSN   GP17, pin 22
    CE          GP20, pin 26                        IRQ   not connected (polled)

The console is the Pico's USB CDC port (/dev/ttyACM0 on the laptop). The BOOTSEL button, pressed
while the relay runs, stops it and gives the REPL back. The nrf24l01 driver comes from
micropython-lib: `mpremote mip install nrf24l01`. Copied to the device as :board.py, beside tenace_radio's
base_main.py as :main.py (hardware/README.md).
"""

from tenace_radio.console_relay import relay
from tenace_radio.nrf24_transport import CHANNEL, PAYLOAD_SIZE, base_station_transport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tenace_radio.base_station import BaseStation

PORT = "rp2"  # its MicroPython port, as sys.platform says: base_main checks it, the tests use its stubs
SPI_ID = 0
SCK = 18
MOSI = 19
MISO = 16
CSN = 17
CE = 20


def nrf24_radio(channel: int = CHANNEL):
    """The nRF24L01+ driver on this wiring, with 32-byte payloads."""
    from machine import SPI, Pin
    from nrf24l01 import NRF24L01  # pyright: ignore[reportMissingImports]  (micropython-lib, installed by mip)

    spi = SPI(SPI_ID, sck=Pin(SCK), mosi=Pin(MOSI), miso=Pin(MISO))
    return NRF24L01(spi, Pin(CSN, Pin.OUT, value=1), Pin(CE, Pin.OUT, value=0), channel, PAYLOAD_SIZE)


def main() -> "BaseStation":
    """Relay until BOOTSEL is pressed; returns the station (its counters()) to the REPL."""
    import rp2

    return relay(base_station_transport(nrf24_radio()), lambda: bool(rp2.bootsel_button()))
