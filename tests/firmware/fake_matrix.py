"""A simulated key matrix without diodes for tenace_terminal.key_matrix's tests: pins of machine.Pin's shape."""

_TICKS_MASK = 0x3FFFFFFF


class TicksClock:
    """ticks_ms() as MicroPython's: wrapping at 2**30; the test moves it."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now & _TICKS_MASK


class RowPin:
    """An output: value(v) drives it (0: selected), value() reads it back."""

    def __init__(self, matrix):
        self.matrix = matrix
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        low = 0
        for pin in self.matrix.rows:
            low += pin.level == 0
        if low > self.matrix.most_rows_low:
            self.matrix.most_rows_low = low
        return None


class ColumnPin:
    """An input with a pull-up: low while a key down joins it, directly or through other keys, to a low row."""

    def __init__(self, matrix, col):
        self.matrix = matrix
        self.col = col

    def value(self, v=None):
        return self.matrix.level(self.col)


class FakeMatrix:
    """Keys by (row, col) as `layout` names them. With no diodes, current flows through every key down, so three
    corners of a rectangle pulled low make the fourth read low too: the ghost a real matrix shows."""

    def __init__(self, layout):
        self.layout = layout
        self.rows = [RowPin(self) for _ in layout]
        self.cols = [ColumnPin(self, c) for c in range(len(layout[0]))]
        self.down = []  # (row, col) of the keys held down
        self.most_rows_low = 0  # the most rows ever driven low at once: a scan drives one

    def where(self, name):
        for r in range(len(self.layout)):
            for c in range(len(self.layout[r])):
                if self.layout[r][c] == name:
                    return (r, c)
        raise ValueError("no key " + name)

    def press(self, *names):
        for name in names:
            place = self.where(name)
            if place not in self.down:
                self.down.append(place)

    def release(self, *names):
        for name in names:
            place = self.where(name)
            if place in self.down:
                self.down.remove(place)

    def level(self, col):
        cols = [col]
        rows = []
        grown = True
        while grown:  # every row and column joined to `col` through keys down
            grown = False
            for r, c in self.down:
                if c in cols and r not in rows:
                    rows.append(r)
                    grown = True
                elif r in rows and c not in cols:
                    cols.append(c)
                    grown = True
        for r in rows:
            if self.rows[r].level == 0:
                return 0
        return 1
