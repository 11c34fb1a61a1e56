"""The keypad: its layout names exactly the keys the app knows, and a result takes at most 8 presses."""

from __future__ import annotations

import ast
import subprocess
import sys

from tenace_terminal.keypad_layout import LAYOUT, all_keys

from conftest import FIRMWARE, ROOT


def key_names_compared() -> set[str]:
    """The key names the terminal's code compares a key against: `key == "OK"`, `key in ("C", "D")`, and
    the module-level tuples of key names (`_STRAIN_KEYS = (...)`) they test with."""
    found: set[str] = set()

    def strings(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "const" and node.args:
            return strings(node.args[0])  # _STRAIN_KEYS = const((...)): inlined by mpy-cross, no global at run time
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.Tuple):
            return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        return set()

    for src in (FIRMWARE / "tenace_terminal").rglob("*.py"):
        if src.name == "keypad_layout.py":
            continue
        for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "key":
                for comparator in node.comparators:
                    found |= strings(comparator)
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id.endswith("_KEYS") for t in node.targets):
                found |= strings(node.value)
    return found


def test_the_layout_holds_every_key_name_once_and_the_app_compares_only_those() -> None:
    names = all_keys()
    assert len(names) == len(set(names)) == 33
    assert all(len(row) == 6 for row in LAYOUT)
    compared = key_names_compared()
    assert compared - set(names) == set()  # a misspelt name in a screen would never match a key
    digits = {str(d) for d in range(10)}  # the screens take these by key.isdigit()
    assert set(names) - compared - digits == set()  # every key does something somewhere
    legend = (ROOT / "hardware" / "keypad.md").read_text(encoding="utf-8")
    for name in names:
        assert name in digits or f'`"{name}"`' in legend, name  # digits: the rows "0" … "9"


def test_keystroke_benchmark_counts_eight_for_the_reference_result() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_keystrokes.py")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "keys per result: 8", lines
    assert len(lines) >= 10
