"""The spare terminal page's board (simulation/boards/spare_board.py) against the real collector: it pairs with
the code, signs in, and a result it enters is stored once, also after a restart from its journal (a reloaded page).
The browser runs it on MicroPython's WebAssembly port (tests/host/test_spare_browser.py); here it runs on CPython
and on the unix port with a terminal-sized heap (tests/test_terminal_on_micropython.py).

Pytest and MicroPython (the same file).
"""

import json
from binascii import hexlify, unhexlify

import sim_devices
from host_end import connect
from sim_devices import Bits, ManualClock
from spare_board import SpareBoard

TERMINAL = 40001
_STEP_MS = 20


def random_hex(bits):
    return lambda n: "%0*x" % (2 * n, bits.getrandbits(8 * n))


def run(board, host, clock, until, limit_ms=20000):
    """Tick the board and exchange its frames with the host, as the page's timer and WebSocket do, until
    `until(state)` holds; the state (the board's tick) then."""
    end = clock.now + limit_ms
    while True:
        state = json.loads(board.tick())
        if until(state):
            return state
        assert clock.now < end, state
        down = host.exchange([unhexlify(frame) for frame in state["out"]], clock.now)
        for frame in down:
            board.heard(hexlify(frame).decode())
        clock.advance(_STEP_MS)


def keys(board, host, clock, text):
    for key in text.split():
        board.key(key)
        run(board, host, clock, lambda s: not s["busy"])


def test_the_board_pairs_signs_in_and_its_result_is_stored_once():
    host = connect({"rounds": 2, "boards_per_round": 2, "settings": {"lead": "off"}})
    storage = sim_devices.new_directory()
    clock = ManualClock(1000)
    try:
        board = SpareBoard(TERMINAL, random_hex(Bits(7)), storage, clock)
        state = run(board, host, clock, lambda s: s["screen"] == "startup")
        assert "Table _" in "\n".join(state["lines"]), state
        keys(board, host, clock, "1 OK " + " ".join(host.code) + " OK")
        state = run(board, host, clock, lambda s: s["signed_in"] and s["screen"] == "round")
        assert state["lines"][0].startswith("Round 1  A1"), state
        assert state["asked"] == "A1"  # the page's help on a table taken names the table signed in to
        keys(board, host, clock, "OK 4 S N =")
        assert "NS +420" in "\n".join(json.loads(board.tick())["lines"])
        keys(board, host, clock, "OK")
        run(board, host, clock, lambda s: s["pending"] == 0)
        assert host.result(1, 1) == "played v0 4S N 10 +420"
        # The page reloaded: a new board on the same journal, which signs in again by itself.
        board = SpareBoard(TERMINAL, random_hex(Bits(8)), storage, clock)
        state = run(board, host, clock, lambda s: s["signed_in"] and not s["busy"])
        assert "1 of 2 entered" in "\n".join(state["lines"]), state
        assert state["faults"] == 0 and state["pending"] == 0
        assert host.results() == {1001: "played v0 4S N 10 +420"}
        assert host.duplicates() == 0
    finally:
        host.close()
        sim_devices.remove_directory(storage)


def test_a_board_the_director_erased_and_the_spare_keys_again_is_its_result():
    """Issue 37: the director erases table 1's board 1 (tenace erase); the phone spare, taking the table over, keys it
    again as a first entry: it counts (no conflict with the erased version), and the page says saved, nothing else."""
    host = connect({"rounds": 1, "boards_per_round": 2, "settings": {"lead": "off"}})
    storage = sim_devices.new_directory()
    clock = ManualClock(1000)
    try:
        assert host.enter(1, 1, 1, "3NT", "S", 9) == "stored" and host.erase(1, 1, 1) == "stored"
        board = SpareBoard(TERMINAL, random_hex(Bits(9)), storage, clock)
        run(board, host, clock, lambda s: s["screen"] == "startup")
        keys(board, host, clock, "1 OK " + " ".join(host.code) + " OK")
        run(board, host, clock, lambda s: s["signed_in"] and s["screen"] == "round")
        keys(board, host, clock, "OK 4 S N = OK")
        state = run(board, host, clock, lambda s: s["pending"] == 0)
        shown = " ".join(" ".join(state["lines"]).split())
        assert "Board 1 saved" in shown and "director" not in shown, shown
        assert host.result(1, 1) == "played v0 4S N 10 +420" and host.conflicts() == 0
        assert host.results() == {1001: "played v0 4S N 10 +420"}
    finally:
        host.close()
        sim_devices.remove_directory(storage)
