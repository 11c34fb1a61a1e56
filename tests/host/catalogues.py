"""The terminal's message catalogues (firmware/tenace_terminal/lang), read for the tests without running them."""

from __future__ import annotations

import ast

from conftest import FIRMWARE

LANG = FIRMWARE / "tenace_terminal" / "lang"


def catalogue(code: str) -> dict[str, str]:
    """Language `code`'s messages, key by key, from its TEXT; a malformed or repeated entry fails the test."""
    path = LANG / f"{code}.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["TEXT"]:
            sections = ast.literal_eval(node.value)
            assert isinstance(sections, tuple), f"{path}: TEXT is not a tuple of sections"
            table: dict[str, str] = {}
            for text in sections:
                assert text.startswith("\n") and text.endswith("\n"), f"{path}: section framing {text[:30]!r}"
                for entry in text[1:-1].split("\n"):
                    key, tab, message = entry.partition("\t")
                    assert tab and key.isidentifier(), f"{path}: malformed entry {entry!r}"
                    assert key not in table, f"{path}: {key} twice"
                    table[key] = message
            return table
    raise AssertionError(f"{path}: no TEXT")
