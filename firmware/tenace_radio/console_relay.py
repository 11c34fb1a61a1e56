"""What every base-station board does once its radio is built: relay to the USB console until a stop button."""

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checkers only: MicroPython has no collections.abc
    from collections.abc import Callable

    from tenace_radio.base_station import BaseStation


def relay(radio, stop_pressed: "Callable[[], bool]") -> "BaseStation":
    """Relay between `radio` (a transport) and the USB console, idling 1 ms when quiet, until stop_pressed();
    then the console is the REPL's again, and the station (its counters()) is returned."""
    import time

    from tenace_radio.base_station import BaseStation
    from tenace_radio.usb_serial import console_transport, release_console

    def idle() -> bool:
        time.sleep_ms(1)
        return stop_pressed()

    station = BaseStation(radio, console_transport())
    try:
        station.run(idle)
    finally:
        release_console()
    return station
