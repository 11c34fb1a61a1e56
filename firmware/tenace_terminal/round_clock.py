"""The director at the table: the answer to a call (COMING) and the round clock, counted down and drawn.

Loaded by the app when the host first sends either (a session without them keeps its RAM). app.called is the
number of the table's last call (screens/call.py), negated once the director has acknowledged it; app.round_clock
is [round, ticks_ms when the host's CLOCK came, ms left then], or None. The table counts down on its own ticks; the
app draws the screen afresh every 10 s while a clock runs, so "move" shows within 10 s of the end.
"""

from micropython import const

from tenace_terminal import catalogue

_MSG_COMING = const("coming")
_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms() wraps at 2**30 on MicroPython: differences are masked
_HINT_BELOW = ("contract", "summary", "deal")  # screens with a hint in the last row: the clock shows only "move"


def message(app, message: dict) -> None:
    """A COMING ("coming": the director answers the table's latest call) or a CLOCK ("clock") from the host."""
    if message["type"] == _MSG_COMING:
        if message["call"] == app.called:
            app.called = -app.called
            app.status = catalogue.text("coming")
    else:
        app.round_clock = [message["round"], app.clock.ticks_ms(), message["left"] * 1000] \
            if message["minutes"] else None
    app.dirty = True


def minutes(app) -> int:
    """Minutes left (rounded up), 0 once time is up (move), -1 with no clock or once the table is on to a later
    round than the clock's, or its session is over."""
    c = app.round_clock
    plan = app.plan
    if c is None or app.session_over or (plan is not None and plan["round"] > c[0]):
        return -1
    left = c[2] - ((app.clock.ticks_ms() - c[1]) & _TICKS_MASK)
    return (left + 59999) // 60000 if left > 0 else 0


def draw(app, display, bottom: int) -> None:
    """The minutes left in the last row when nothing else is there, on a screen that leaves that row free; "move" on
    any screen, in the last row or above the status and the battery's warning."""
    shown = minutes(app)
    if shown < 0 or (shown and (bottom < display.rows or app.battery_low >= 0 or app.screen_name in _HINT_BELOW)):
        return
    row = bottom - 1 if app.battery_low < 0 else bottom - 2
    display.text(0, row, " " * display.cols)
    display.text(0, row, catalogue.text("clock_left", shown) if shown else catalogue.text("clock_move"))
