"""The base station's main.py (copy it to the device as :main.py): starts the board file of this port."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tenace_radio.base_station import BaseStation


def main() -> "BaseStation":
    if sys.platform == "esp32":
        from tenace_radio.boards.esp32_espnow import main as board_main
    elif sys.platform == "rp2":
        from tenace_radio.boards.rp2_nrf24 import main as board_main
    else:
        raise OSError("no base station board file for the %s port" % sys.platform)
    return board_main()


if __name__ == "__main__":
    station = main()  # main.py shares the REPL's namespace: station.counters() there after a stop
