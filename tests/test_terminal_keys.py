"""The keypad: its layout names exactly the keys the app knows, and a result takes at most 8 presses."""

from __future__ import annotations

import subprocess
import sys

from tenace_terminal import keys
from tenace_terminal.keypad_layout import LAYOUT, all_keys

from conftest import ROOT


def test_the_layout_holds_every_key_name_once() -> None:
    names = all_keys()
    assert len(names) == len(set(names)) == 33
    assert all(len(row) == 6 for row in LAYOUT)
    defined = {value for name, value in vars(keys).items() if name.isupper() and isinstance(value, str)}
    defined |= set(keys.DIGITS) | set(keys.RANKS)
    assert set(names) == defined  # "S" is both SPADES and SOUTH: one key
    legend = (ROOT / "hardware" / "keypad.md").read_text(encoding="utf-8")
    for name in names:
        assert name in keys.DIGITS or f'`"{name}"`' in legend, name  # digits: the rows "0" … "9"


def test_keystroke_benchmark_counts_eight_for_the_reference_result() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_keystrokes.py")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "keys per result: 8", lines
    assert len(lines) >= 10
