"""A text-only display of the terminal's shape (21x8 cells) that keeps its lines, for tests and simulators."""


class TextGrid:
    """The display interface the app uses (clear, text, show, cols, rows, rtl), holding plain text lines."""

    def __init__(self, cols: int = 21, rows: int = 8) -> None:
        self.cols = cols
        self.rows = rows
        self.rtl = False
        self.shown = 0  # how many times show() was called: one per frame the app drew
        self._blank = " " * cols
        self.lines = [self._blank] * rows
        self.inverse = [False] * rows
        self.frame = self.lines  # the lines as of the last show(), what a player would see

    def clear(self) -> None:
        self.lines = [self._blank] * self.rows
        self.inverse = [False] * self.rows

    def text(self, col: int, row: int, s: str, inverse: bool = False) -> None:
        if not 0 <= row < self.rows or col >= self.cols:
            return
        if col < 0:
            s = s[-col:]
            col = 0
        line = self.lines[row]
        s = s[: self.cols - col]
        self.lines[row] = line[:col] + s + line[col + len(s):]
        if inverse:
            self.inverse[row] = True

    def big(self, col: int, row: int, s: str) -> None:
        """Large type (TextDisplay.big: 2 x 2 cells a character, rows `row` and `row` + 1) as text: s on `row`, cut
        where the device cuts it, so that what a test reads is what fits."""
        if 0 <= row < self.rows - 1:
            self.text(col, row, s[:max(0, (self.cols - col) // 2)])

    def show(self) -> None:
        self.shown += 1
        self.frame = list(self.lines)

    def screen(self) -> str:
        """The last frame shown, one line per row, trailing spaces removed."""
        return "\n".join([line.rstrip() for line in self.frame])
