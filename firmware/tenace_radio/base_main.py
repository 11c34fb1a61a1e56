"""The base station's main.py (copy it to the device as :main.py): starts the board file of this port."""

import sys


def main() -> None:
    if sys.platform == "esp32":
        from tenace_radio.boards.esp32_espnow import main as board_main
    elif sys.platform == "rp2":
        from tenace_radio.boards.rp2_nrf24 import main as board_main
    else:
        raise OSError("no base station board file for the %s port" % sys.platform)
    board_main()


if __name__ == "__main__":
    main()
