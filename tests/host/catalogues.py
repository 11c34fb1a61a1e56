"""The terminal's message catalogues (firmware/tenace_terminal/lang/*.txt), read for the tests."""

from __future__ import annotations

from conftest import FIRMWARE

LANG = FIRMWARE / "tenace_terminal" / "lang"


def catalogue(code: str) -> dict[str, str]:
    """Language `code`'s messages, key by key; a malformed or repeated entry fails the test."""
    path = LANG / f"{code}.txt"
    table: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        key, tab, message = line.partition("\t")
        assert tab and key.isidentifier(), f"{path}:{number}: malformed entry {line!r}"
        assert key not in table, f"{path}:{number}: {key} twice"
        table[key] = message
    return table
