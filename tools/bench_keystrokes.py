#!/usr/bin/env python3
"""Key presses per result on the table terminal: standard results replayed through the real app.

Each case starts on the contract screen with the board preselected (as after the previous result)
and ends when the opponents' ACCEPT has been journaled and the screen says "saved"; the collector's
event file must then hold exactly the expected result. Prints one line per case and, last, the count for
the reference case "4S by North, lead HK, 11 tricks" (a Bridgemate II needs 11 presses for it):

    keys per result: 8

Run: .venv/bin/python tools/bench_keystrokes.py   (CPython; the app is the firmware's, unchanged)
"""

from __future__ import annotations

import sys

from tenace.firmware_build import FIRMWARE, SIM_DIR

sys.path[:0] = [str(FIRMWARE), str(SIM_DIR)]

from session_runner import Simulator  # noqa: E402  (the paths above first)

REFERENCE = "4\u2660 by North, lead \u2665K, 11 tricks"
# (what is entered, the keys, the host's settings, what the host must receive: summary() of the result)
CASES: list[tuple[str, str, dict[str, str], str]] = [
    (REFERENCE, "4 S N K H + 1 OK", {}, "played v0 4S N 11 HK +450"),
    ("same, result as total tricks", "4 S N K H 1 1 OK", {}, "played v0 4S N 11 HK +450"),
    ("same, card keyed suit first", "4 S N H K + 1 OK", {}, "played v0 4S N 11 HK +450"),
    ("3NT by South, lead \u26604, made", "3 NT S 4 S = OK", {}, "played v0 3NT S 9 S4 +400"),
    ("4\u2665X by East, lead \u2666A, down 2", "4 H X E A D - 2 OK", {}, "played v0 4HX E 8 DA +300"),
    ("1\u2663XX by South, lead \u2666T, 10 tricks", "1 C X X S T D 1 0 OK", {}, "played v0 1CXX S 10 DT +830"),
    ("2\u2660 by West, lead \u26632, 8 tricks", "2 S W 2 C 8 OK", {}, "played v0 2S W 8 C2 -110"),
    ("6NT by North, lead \u2665Q, 13 tricks", "6 NT N Q H + 1 OK", {}, "played v0 6NT N 13 HQ +1020"),
    ("passed out", "PASS OK", {}, "passed_out v0 Pass"),
    ("4\u2660 by North, 11 tricks (lead not entered)", "4 S N + 1 OK", {"lead": "off"}, "played v0 4S N 11 +450"),
    ("4\u2660 by North, down 1 (relative results only)", "4 S N K H - 1 OK OK", {"result": "relative"},
     "played v0 4S N 9 HK -50"),
]


def keys_for(label: str, script: str, settings: dict[str, str], expected: str) -> int:
    """Key presses from the preselected board to the saved result; checks what the host received."""
    sim = Simulator(settings=settings or None, rounds=1, boards_per_round=3)
    try:
        sim.sign_in(1)
        sim.press("OK")
        board_screen = sim.screen()
        if "Bd 1" not in board_screen or "Contract _" not in board_screen:
            raise SystemExit(f"{label}: not on the preselected board:\n{board_screen}")
        count = 0
        for key in script.split():
            screen = sim.press(key)
            count += 1
        if "Board 1 saved" not in screen:
            raise SystemExit(f"{label}: not saved after {script!r}:\n{screen}")
        got = sim.host.result(1, 1)
        if got != expected:
            raise SystemExit(f"{label}: the host stored {got!r}, not {expected!r}")
        return count
    finally:
        sim.close()


def main() -> int:
    reference = 0
    for label, script, settings, expected in CASES:
        count = keys_for(label, script, settings, expected)
        print(f"{count:2d} keys  {label:<46} {script}")
        if label == REFERENCE:
            reference = count
    print(f"keys per result: {reference}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
