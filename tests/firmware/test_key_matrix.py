"""The key-matrix scanner on a simulated matrix without diodes: debounce, held keys, two keys, ghosts, tick wrap.

Runs under pytest and MicroPython. The test names are short: the shared MicroPython run of every firmware test
module keeps each name (an interned string) to its end.
"""

from fake_matrix import FakeMatrix, TicksClock
from tenace_terminal.key_matrix import KeyMatrix
from tenace_terminal.keypad_layout import LAYOUT

from checks import raises

STEP_MS = 5  # how often these tests scan; the app reads its keypad about every 10 ms when idle


def keypad(start=1000, debounce_ms=20):
    matrix = FakeMatrix(LAYOUT)
    clock = TicksClock(start)
    return matrix, clock, KeyMatrix(matrix.rows, matrix.cols, clock, LAYOUT, debounce_ms)


def run(clock, scanner, ms):
    """Scan every STEP_MS for `ms` milliseconds; the keys read, each with when it came (ms from the start)."""
    got = []
    for t in range(0, ms, STEP_MS):
        key = scanner.read()
        if key is not None:
            got.append((key, t))
        clock.now += STEP_MS
    return got


def names(got):
    return [key for key, _ in got]


def test_one_press():
    matrix, clock, scanner = keypad()
    assert run(clock, scanner, 50) == []
    matrix.press("4")
    assert run(clock, scanner, 100) == [("4", 20)]  # seen at 0, unchanged for 20 ms
    matrix.release("4")
    assert run(clock, scanner, 100) == []
    assert matrix.most_rows_low == 1  # one row driven at a time
    assert [pin.level for pin in matrix.rows] == [1] * len(LAYOUT)  # and none left driven between scans


def test_every_key():
    matrix, clock, scanner = keypad()
    for row in LAYOUT:
        for name in row:
            if name:
                matrix.press(name)
                assert names(run(clock, scanner, 40)) == [name], name
                matrix.release(name)
                assert run(clock, scanner, 40) == [], name


def test_bounce():
    matrix, clock, scanner = keypad()
    for _ in range(3):  # the contact chatters every 5 ms for 30 ms as it closes
        matrix.press("K")
        assert run(clock, scanner, 5) == []
        matrix.release("K")
        assert run(clock, scanner, 5) == []
    matrix.press("K")
    assert run(clock, scanner, 200) == [("K", 20)]  # 20 ms after the chatter ended, once
    for _ in range(3):  # and as it opens: no second K
        matrix.release("K")
        run(clock, scanner, 5)
        matrix.press("K")
        assert run(clock, scanner, 5) == []
    matrix.release("K")
    assert run(clock, scanner, 100) == []


def test_short_tap():
    matrix, clock, scanner = keypad()
    matrix.press("OK")
    assert run(clock, scanner, 15) == []
    matrix.release("OK")
    assert run(clock, scanner, 100) == []


def test_held_key():
    matrix, clock, scanner = keypad()
    matrix.press("1")
    assert names(run(clock, scanner, 3000)) == ["1"]  # held three seconds: no repeat ("1" "1" would be 11 tricks)


def test_press_again():
    matrix, clock, scanner = keypad()
    got = []
    for _ in range(3):
        matrix.press("X")
        got += names(run(clock, scanner, 60))
        matrix.release("X")
        got += names(run(clock, scanner, 60))
    assert got == ["X", "X", "X"]  # X, XX, undoubled: each press counts


def test_two_keys():
    matrix, clock, scanner = keypad()
    matrix.press("S", "1")  # rows 1 and 0, different columns: no rectangle
    assert run(clock, scanner, 100) == [("1", 20), ("S", 25)]  # row-major, one per read
    matrix.release("S", "1")
    run(clock, scanner, 50)
    matrix.press("2", "1", "3")  # three in one row: no rectangle either
    assert names(run(clock, scanner, 100)) == ["1", "2", "3"]
    matrix.release("1", "2", "3")
    run(clock, scanner, 50)
    matrix.press("9", "3", "6")  # three in one column
    assert names(run(clock, scanner, 100)) == ["3", "6", "9"]


def test_key_while_held():
    matrix, clock, scanner = keypad()
    matrix.press("4")
    assert names(run(clock, scanner, 50)) == ["4"]
    matrix.press("S")
    assert names(run(clock, scanner, 50)) == ["S"]
    matrix.release("4")
    assert run(clock, scanner, 50) == []  # S still held
    matrix.release("S")
    assert run(clock, scanner, 50) == []


def test_sim_ghost():
    # The test's own ground: three corners down, the fourth reads down too (row 1 column 1 is "5").
    matrix = FakeMatrix(LAYOUT)
    matrix.press("1", "2", "4")
    matrix.rows[1].value(0)
    assert [pin.value() for pin in matrix.cols][:3] == [0, 0, 1]
    matrix.rows[1].value(1)


def test_ghost():
    matrix, clock, scanner = keypad()
    matrix.press("1", "2", "4")  # "5" appears
    assert run(clock, scanner, 200) == []
    matrix.release("4")  # the rectangle is gone; 1 and 2 were held through it: still nothing
    assert run(clock, scanner, 100) == []
    matrix.press("9")  # a new key after it cleared is reported
    assert names(run(clock, scanner, 100)) == ["9"]
    matrix.release("1", "2", "9")
    run(clock, scanner, 50)
    matrix.press("5")  # the ghost's own key, really pressed now
    assert names(run(clock, scanner, 100)) == ["5"]


def test_ghost_third():
    matrix, clock, scanner = keypad()
    matrix.press("1")
    assert names(run(clock, scanner, 50)) == ["1"]
    matrix.press("6")  # row 1, column 2: no rectangle with "1"
    assert names(run(clock, scanner, 50)) == ["6"]
    matrix.press("3")  # row 0 column 2: with 1 and 6, "4" appears
    assert run(clock, scanner, 200) == []
    matrix.release("1", "3", "6")
    assert run(clock, scanner, 50) == []
    matrix.press("3")
    assert names(run(clock, scanner, 50)) == ["3"]


def test_tick_wrap():
    matrix, clock, scanner = keypad(start=(1 << 30) - 12)
    matrix.press("PASS")
    got = run(clock, scanner, 100)  # ticks go 2**30-12, ..., 2**30-2, then 3, 8, ...
    assert got == [("PASS", 20)], got
    matrix.release("PASS")
    run(clock, scanner, 50)
    matrix.press("PASS")
    assert run(clock, scanner, 100) == [("PASS", 20)]


def test_debounce_50():
    matrix, clock, scanner = keypad(debounce_ms=50)
    matrix.press("MENU")
    assert run(clock, scanner, 200) == [("MENU", 50)]


def test_9_columns():
    matrix = FakeMatrix((("a",) * 9,))
    assert "8 columns" in raises(ValueError, KeyMatrix, matrix.rows, matrix.cols, TicksClock(), (("a",) * 9,))
