"""A pair as a director writes it on the command line ("NS 3", "B-EW 7", a Howell's "7"), found in its section."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tenace.errors import UsageError

_PAIR = re.compile(r"^\s*(?:([A-Za-z0-9]{1,8})\s*-\s*)?(?:(NS|EW)\s*)?(\d{1,4})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class PairOption:
    section: str
    field: str  # "NS" or "EW"; "" for a pair that changes direction (a Howell's)
    number: int


def parse_pair(text: str, sections: list[str], section: str | None = None, option: str = "") -> PairOption:
    """The pair `text` names, in the section its letter names, else `section` (--section), else the only one.
    `option` ("--pair") opens each message."""
    said = f"{option} {text!r}" if option else repr(text)
    found = _PAIR.match(text)
    if found is None:
        raise UsageError(f'{said} is not a pair as directors write it: "NS 3", "EW 3", "B-NS 3" or a Howell\'s "7"')
    named = found[1]
    if named is not None:
        matching = [s for s in sections if s.upper() == named.upper()]
        if not matching:
            raise UsageError(f"{said}: there is no section {named} (sections: {', '.join(sections)})")
        if section is not None and section != matching[0]:
            raise UsageError(f"{said} is in section {matching[0]}, not --section {section}")
        section = matching[0]
    elif section is None:
        if len(sections) > 1:
            raise UsageError(f"the event has sections {', '.join(sections)}: write \"A-NS 3\" or give --section")
        section = sections[0]
    return PairOption(section, (found[2] or "").upper(), int(found[3]))
