"""tools/screenshots.py: the README's screenshots copied from build/ only when each is there, a PNG and small."""

from __future__ import annotations

from pathlib import Path

import pytest
import screenshots

PNG = b"\x89PNG\r\n\x1a\n"


def saved(build: Path, sizes: dict[str, int]) -> None:
    build.mkdir(parents=True, exist_ok=True)
    for name, size in sizes.items():
        (build / name).write_bytes(PNG + b"\0" * (size - len(PNG)))


def copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = screenshots.main(["--no-run", "--build", str(tmp_path / "build"), "--docs", str(tmp_path / "docs")])
    out, err = capsys.readouterr()
    return code, out, err


def every_shot(size: int = 50_000) -> dict[str, int]:
    """Each screenshot the README shows, a size apiece (its own, so that a mix-up shows)."""
    return {name: size + 1000 * i for i, name in enumerate(screenshots.SHOTS)}


def test_every_screenshot_is_copied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert {"console-grid-1366x768.png", "console-setup-1366x768.png", "table-card-print.png"} < set(screenshots.SHOTS)
    sizes = every_shot()
    saved(tmp_path / "build", sizes)
    code, out, _ = copy(tmp_path, capsys)
    assert code == 0 and out.count(" KB\n") == len(sizes)
    assert {p.name: p.stat().st_size for p in (tmp_path / "docs").iterdir()} == sizes


@pytest.mark.parametrize(("sizes", "message"), [
    ({"rankings-390x844.png": 50_000}, "traveller-390x844.png is missing"),
    ({k: v for k, v in every_shot().items() if k != "console-grid-1366x768.png"},
     "console-grid-1366x768.png is missing"),
    ({**every_shot(), "traveller-390x844.png": 250_000}, "is 250 KB, more than the 200 KB"),
])
def test_nothing_is_copied_unless_every_one_is_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              sizes: dict[str, int], message: str) -> None:
    saved(tmp_path / "build", sizes)
    code, out, err = copy(tmp_path, capsys)
    assert (code, out) == (2, "") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "docs").exists()


def test_not_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved(tmp_path / "build", every_shot())
    (tmp_path / "build" / "rankings-390x844.png").write_text("<html>")
    code, _, err = copy(tmp_path, capsys)
    assert code == 2 and "is not a PNG image" in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        screenshots.main(["--help"])
    assert done.value.code == 0 and "--no-run" in capsys.readouterr().out


def test_the_terminals_main_screens_come_from_the_pixel_simulator(tmp_path: Path) -> None:
    """Issue 37: the README shows the terminal's contract, summary, traveller and move screens as the 2.42-inch display
    shows them (large type for the board, the contract, the score and the move), made by the simulator from
    tools/readme-screens.keys."""
    screens = ("contract", "summary", "traveller", "move")
    assert set(screenshots.TERMINAL_SHOTS) == {f"terminal-{n}.png" for n in screens}
    assert set(screenshots.TERMINAL_SHOTS) < set(screenshots.SHOTS)
    screenshots.run_terminal(tmp_path)
    for name in screenshots.TERMINAL_SHOTS:
        assert (tmp_path / name).read_bytes()[:8] == PNG and (tmp_path / name).stat().st_size < screenshots.MAX_BYTES
    said = {name: (tmp_path / name.replace(".png", ".txt")).read_text() for name in screenshots.TERMINAL_SHOTS}
    assert "|Contract 4\u2660X" in said["terminal-contract.png"]
    assert "|NS +590" in said["terminal-summary.png"] and "EW: OK to accept" in said["terminal-summary.png"]
    assert "|Board 1 traveller" in said["terminal-traveller.png"]
    move = " ".join(said["terminal-move.png"].split())  # (the table number in large type: blank cells after it)
    assert "|Round 1 finished" in said["terminal-move.png"] and "EW 3 > table 4 EW" in move
