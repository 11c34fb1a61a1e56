"""A pair as a director writes it ("NS 3", "B-EW 7", a Howell's "7"), found in its section."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tenace.director.errors import DirectorInputError

_PAIR = re.compile(r"^\s*(?:([A-Za-z0-9]{1,8})\s*-\s*)?(?:(NS|EW)\s*)?(\d{1,4})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Pair:
    section: str
    field: str  # "NS" or "EW"; "" for a pair that changes direction (a Howell's)
    number: int


def parse_pair(text: str, sections: list[str], section: str | None = None, field: str = "pair") -> Pair:
    """The pair `text` (typed in `field`) names, in the section its letter names, else `section`, else the only one;
    DirectorInputError naming `field` (or "section") when it cannot be found."""
    found = _PAIR.match(text)
    if found is None:
        raise DirectorInputError(field, ' is not a pair as directors write it: "NS 3", "EW 3", "B-NS 3" or a '
                                 'Howell\'s "7"', text=text)
    named = found[1]
    if named is not None:
        matching = [s for s in sections if s.upper() == named.upper()]
        if not matching:
            raise DirectorInputError(field, ": there is no section {named} (sections: {sections})", text=text,
                                     named=named, sections=", ".join(sections))
        if section is not None and section != matching[0]:
            raise DirectorInputError(field, " is in section {found}, not {section} {given}", text=text,
                                     found=matching[0], given=section)
        section = matching[0]
    elif section is None:
        if len(sections) > 1:
            raise DirectorInputError("section", 'the event has sections {sections}: write "A-NS 3" or give {section}',
                                     sections=", ".join(sections))
        section = sections[0]
    return Pair(section, (found[2] or "").upper(), int(found[3]))


def pair_label(pair: Pair, several_sections: bool) -> str:
    """The pair as a director writes it: "NS 3", a Howell's "7", "B-NS 3" when the event has several sections."""
    label = f"{pair.field} {pair.number}".strip()
    return f"{pair.section}-{label}" if several_sections else label
