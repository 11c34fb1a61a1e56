"""The check the words tests share: which English words of a page's words files show on a page in another language."""

from __future__ import annotations

import re
from collections.abc import Mapping

from tenace.page_base.words import PLACEHOLDER


def english_left(text: str, english: Mapping[str, str], mine: Mapping[str, str]) -> list[str]:
    """The fixed parts (three letters or more) of the English words that show in a page's visible `text` where the
    page's language (`mine`) says something else; the switcher names English in English ("language")."""
    left = []
    for key, en in english.items():
        if mine[key] == en or key == "language":
            continue
        for part in PLACEHOLDER.split(en)[::2]:
            part = part.strip(" ,.:()%·")
            if len(part) >= 3 and re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text):
                left.append(f"{key}: {part!r}")
    return left
