"""A pair as a director writes it on the command line ("NS 3"): the director's parser, refusals naming the option."""

from __future__ import annotations

from tenace.director.errors import DirectorInputError
from tenace.director.pairs import Pair
from tenace.director.pairs import parse_pair as find_pair
from tenace.errors import UsageError

PairOption = Pair


def parse_pair(text: str, sections: list[str], section: str | None = None, option: str = "") -> PairOption:
    """The pair `text` names, in the section its letter names, else `section` (--section), else the only one.
    `option` ("--pair") opens each message."""
    try:
        return find_pair(text, sections, section)
    except DirectorInputError as e:
        raise UsageError(e.said({"pair": option, "section": "--section"})) from None
