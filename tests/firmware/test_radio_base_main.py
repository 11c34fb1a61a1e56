"""The base station's main.py (tenace_radio.base_main): it starts the board.py beside it, if it is for this port."""

import sys

from tenace_radio.base_main import main


class _Board:
    """Stands for a board file (hardware/<board>/board.py, copied to the device as board.py)."""

    def __init__(self, port):
        self.PORT = port
        self.started = 0

    def main(self):
        self.started += 1
        return "station"


def _with_board(board):
    """main() with `board` as the module named board; sys.modules as it was afterwards."""
    saved = sys.modules.get("board")
    sys.modules["board"] = board
    try:
        return main()
    finally:
        if saved is None:
            del sys.modules["board"]
        else:
            sys.modules["board"] = saved


def test_the_board_file_of_this_port_is_started():
    board = _Board(sys.platform)
    assert _with_board(board) == "station"
    assert board.started == 1


def test_a_board_file_of_another_port_is_refused_by_name():
    board = _Board("esp32" if sys.platform != "esp32" else "rp2")
    try:
        _with_board(board)
    except OSError as e:
        assert "board.py is for the %s port, this is %s" % (board.PORT, sys.platform) in str(e), e
    else:
        raise AssertionError("a board file of another port was started")
    assert board.started == 0
