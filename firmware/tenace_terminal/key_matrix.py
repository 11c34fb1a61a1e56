"""The keypad as a scanned key matrix: one row driven at a time, debounced, ghost keys refused; read() like any keypad.

A board file builds it from its pins and passes it to App as the keypad:

    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in ROW_PINS]   # driven low one at a time
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COL_PINS]        # read low where a key joins them to that row
    keypad = KeyMatrix(rows, cols, time, keypad_layout.LAYOUT)

Open-drain rows: two keys pressed in one column then join a low row to a released one, never to a row driven
high (a short). The pins need only value() and value(v), so a test passes a simulated matrix.

What read() gives:
- a key once, when it has been down for `debounce_ms` without a change (bounce shorter than that is ignored);
- nothing more while it is held: no auto-repeat. Every entry on the terminal is a few presses, and a repeat
  would turn a slow press of "1" into "11" (eleven tricks); lists are short enough for one press a step;
- two (or more) keys going down together: each once, in row-major order of the layout, one per read();
- nothing new while the keys down form a rectangle (two rows sharing two columns): without a diode per key,
  three corners pressed make the fourth appear (a ghost), and which three is unknowable. Keys held through
  the rectangle are never reported; a key pressed after it has cleared is.
"""

from micropython import const

# MicroPython's ticks_ms() wraps at 2**30 on every port; a difference masked by this is right across the wrap.
_TICKS_MASK = const(0x3FFFFFFF)
DEBOUNCE_MS = const(20)  # contact bounce of keypad switches is a few ms; 20 ms stays well below a deliberate tap


class KeyMatrix:
    """Scans `rows` (outputs, active low) against `cols` (inputs, pulled up) with `clock.ticks_ms()`; key names
    from `layout[row][col]` ("" where there is no key). At most 8 columns: a row's keys are one byte."""

    def __init__(self, rows, cols, clock, layout, debounce_ms: int = DEBOUNCE_MS) -> None:
        if len(cols) > 8:
            raise ValueError("at most 8 columns")
        self.rows = rows
        self.cols = cols
        self.clock = clock
        self.layout = layout
        self.debounce_ms = debounce_ms
        n = len(rows)
        # One byte a row, a bit a column; bytearrays, not an int over all keys: 36 keys would be a long int,
        # allocated on the heap at every scan.
        self._raw = bytearray(n)  # the last scan
        self._stable = bytearray(n)  # the last scan that held for debounce_ms
        self._seen = bytearray(n)  # keys down that need no report: reported already, or held through a ghost
        self._pending = bytearray(n)  # keys to report, one per read()
        self._since = clock.ticks_ms()  # when the scan last changed
        for pin in rows:
            pin.value(1)

    def read(self):
        """The name of the next key pressed, or None."""
        self._scan()
        return self._next()

    def held(self) -> list:
        """The names of the keys down at this instant, from one scan without debounce: a chord held at power-on
        (the factory test's), whose contacts settled long before. Those keys are still reported by read()."""
        self._scan()
        raw = self._raw
        layout = self.layout
        out = []
        for r in range(len(raw)):
            for c in range(len(self.cols)):
                if raw[r] & (1 << c) and layout[r][c]:
                    out.append(layout[r][c])
        return out

    def _scan(self) -> None:
        rows = self.rows
        cols = self.cols
        raw = self._raw
        changed = False
        for r in range(len(rows)):
            pin = rows[r]
            pin.value(0)
            # (MicroPython's own pace gives the column lines the microseconds they need to settle.)
            bits = 0
            for c in range(len(cols)):
                if not cols[c].value():
                    bits |= 1 << c
            pin.value(1)
            if raw[r] != bits:
                raw[r] = bits
                changed = True
        now = self.clock.ticks_ms()
        if changed:
            self._since = now
        elif raw != self._stable and (now - self._since) & _TICKS_MASK >= self.debounce_ms:
            self._settle()

    def _settle(self) -> None:
        """The scan has held for the debounce time: it is the keys down now."""
        raw = self._raw
        stable = self._stable
        seen = self._seen
        pending = self._pending
        ghost = _rectangle(raw)
        for r in range(len(raw)):
            down = raw[r]
            stable[r] = down
            seen[r] &= down  # a key let go may be reported again when pressed again
            if not ghost:
                pending[r] |= down & ~seen[r]  # (a key let go before it was read stays: it was pressed)
            # Held through a ghost, which keys are real is unknowable: none is reported, now or later while held.
            seen[r] |= down

    def _next(self):
        pending = self._pending
        layout = self.layout
        for r in range(len(pending)):
            while pending[r]:
                bits = pending[r]
                c = 0
                while not bits & (1 << c):
                    c += 1
                pending[r] = bits & ~(1 << c)
                name = layout[r][c]
                if name:  # (a place with no key can read closed only through a fault: skipped)
                    return name
        return None


def _rectangle(rows) -> bool:
    """Two rows share two or more columns: the keys down form a rectangle, one of its corners perhaps a ghost."""
    n = len(rows)
    for i in range(n):
        if rows[i]:
            for j in range(i + 1, n):
                common = rows[i] & rows[j]
                if common & (common - 1):  # more than one bit
                    return True
    return False
