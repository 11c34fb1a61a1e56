"""The base station's main.py (copied to the device as :main.py): starts the board file beside it, :board.py."""

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tenace_radio.base_station import BaseStation


def main() -> "BaseStation":
    # board.py is hardware/<board>/board.py, copied under that one name (hardware/README.md): the firmware
    # never names a board, so a new board is a new folder and nothing here changes.
    import board  # pyright: ignore[reportMissingImports]  (not in firmware/: on the device only)

    if board.PORT != sys.platform:  # the other build's board file: say so before it fails on a missing module
        raise OSError("board.py is for the %s port, this is %s" % (board.PORT, sys.platform))
    return board.main()


if __name__ == "__main__":
    station = main()  # main.py shares the REPL's namespace: station.counters() there after a stop
