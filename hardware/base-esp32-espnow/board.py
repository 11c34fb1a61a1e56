"""Board file: an ESP32 dev board as base station, ESP-NOW to the terminals, the USB serial console to the laptop.

Copied to the device as :board.py, beside tenace_radio's base_main.py as :main.py (hardware/README.md).
The console is UART0 behind the board's USB-serial chip (/dev/ttyUSB0 at 115200 baud on the laptop).
The BOOT button (GPIO0, free once the board runs) stops the relay and gives the REPL back.
"""

from tenace_radio.console_relay import relay
from tenace_radio.espnow_transport import CHANNEL, RXBUF, EspNowTransport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tenace_radio.base_station import BaseStation

PORT = "esp32"  # its MicroPython port, as sys.platform says: base_main checks it, the tests use its stubs
STOP_BUTTON = 0  # GPIO0, the BOOT button: low while pressed


def espnow_radio(channel: int = CHANNEL):
    """An active espnow.ESPNow on the Wi-Fi channel of the event."""
    import espnow
    import network

    sta = network.WLAN(network.WLAN.IF_STA)
    sta.active(True)
    sta.config(channel=channel)  # no access point: the channel is the event's, the same on every node
    esp = espnow.ESPNow()
    esp.config(rxbuf=RXBUF)  # before active(True), which allocates the buffer
    esp.active(True)
    return esp


def main() -> "BaseStation":
    """Relay until the BOOT button is pressed; returns the station (its counters()) to the REPL."""
    from machine import Pin

    button = Pin(STOP_BUTTON, Pin.IN, Pin.PULL_UP)
    return relay(EspNowTransport(espnow_radio()), lambda: button.value() == 0)
