"""What the words tests share: the keys templates ask for, and the English words left on a page in another language."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from jinja2 import Environment, nodes

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


def template_keys(env: Environment, names: Iterable[str]) -> set[str]:
    """The keys the named templates pass to t(...), each a literal (a key made at render time fails: no test could
    check it)."""
    keys = set()
    for name in names:
        source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
        for call in env.parse(source).find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == "t":
                literal = [c.value for c in call.args[0].find_all(nodes.Const) if isinstance(c.value, str)]
                if isinstance(call.args[0], nodes.Const):
                    literal.append(call.args[0].value)
                assert literal, f"{name}: a key made at render time, which no test can check"
                keys.update(literal)
    return keys
