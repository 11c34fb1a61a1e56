"""The director at the table: the table's call and its answer (COMING), and the round clock, counted down and drawn.

Loaded when the players first call the director (screens/call.py) or the host first sends either (Screen.message,
screens/__init__.py): a session without them keeps its RAM. app.director is then [call, round, ticks_ms, ms, draw]:
the number of the table's last call (1-255), negated once the director has acknowledged it, 0 for none; the round
the clock runs for (0: no clock), the ticks_ms when the host's CLOCK came and the ms left then; and draw() below,
which App.draw calls through it (an import there would cost every session's RAM). The table counts down on its own
ticks; the app draws the screen afresh every 10 s while app.director is set, so "move" shows within 10 s of the end.
"""

from micropython import const

from tenace_terminal import catalogue

_TICKS_MASK = const(0x3FFFFFFF)  # ticks_ms() wraps at 2**30 on MicroPython: differences are masked
_HINT_BELOW = ("contract", "summary", "deal")  # screens with a hint in the last row: the clock shows only "move"


def state(app) -> list:
    """app.director, made when first needed."""
    if app.director is None:
        app.director = [0, 0, 0, 0, draw]
    return app.director


def message(app, message: dict) -> None:
    """The host's COMING ({"type": "director", "call"}: the director answers the table's latest call) or CLOCK
    ({"type": "director", "round", "minutes", "left"})."""
    d = state(app)
    if "call" in message:
        if message["call"] == d[0]:
            d[0] = -d[0]
            app.status = catalogue.text("coming")
    elif message["minutes"]:
        d[1] = message["round"]
        d[2] = app.clock.ticks_ms()
        d[3] = message["left"] * 1000
    else:
        d[1] = 0  # the director stopped the clock
    app.dirty = True


def coming(app) -> bool:
    """The director has acknowledged the table's last call."""
    return app.director is not None and app.director[0] < 0


def minutes(app) -> int:
    """Minutes left (rounded up), 0 once time is up (move), -1 with no clock or once the table is on to a later
    round than the clock's, or its session is over."""
    d = app.director
    plan = app.plan
    if d is None or not d[1] or app.session_over or (plan is not None and plan["round"] > d[1]):
        return -1
    left = d[3] - ((app.clock.ticks_ms() - d[2]) & _TICKS_MASK)
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
