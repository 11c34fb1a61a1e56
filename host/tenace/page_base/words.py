"""The pages' words in the terminal's languages, from page_base/lang/XX.txt: read by hand, not by gettext, so that a
translator edits the terminal's one simple format (key, tab, text) here too; Accept-Language (RFC 9110's weighted
list) is likewise parsed in a few lines rather than with a locale library for one header."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from urllib.parse import urlencode

from markupsafe import Markup, escape

# The terminal's languages (firmware/tenace_terminal/lang/), English first: the default and the reference.
LANGUAGES = ("en", "he", "lv", "sk", "sr")
DEFAULT = "en"
RIGHT_TO_LEFT = frozenset({"he"})
# Tags a browser may send for one of ours: "iw" is Hebrew's old code; Serbian in Latin script is read in Bosnia too.
ALIASES = {"iw": "he", "bs": "sr", "sh": "sr"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Missing(KeyError):
    """A key a page asks for that the language's file does not have (the tests keep every key in every file)."""


@dataclass(frozen=True)
class Words:
    """One language's words: called as t("key", name=value) by the templates, each {name} filled in (escaped for
    HTML, unless it is Markup already: a number kept left to right in a <bdi>)."""

    lang: str
    texts: dict[str, str]

    @property
    def dir(self) -> str:
        return "rtl" if self.lang in RIGHT_TO_LEFT else "ltr"

    @property
    def name(self) -> str:
        """The language's own name, for the switcher ("Latviešu")."""
        return self.texts["language"]

    def ltr(self, text: object) -> Markup:
        """A number, a contract or a score kept reading left to right inside a right-to-left (Hebrew) page: "-1960"
        and "4♠X" would otherwise be reordered by the page's direction. A left-to-right page needs nothing around it."""
        shown = str(text)
        if not shown or self.dir == "ltr":
            return escape(shown)
        return Markup('<bdi dir="ltr">{}</bdi>').format(shown)

    def plain(self, key: str, **values: object) -> str:
        """The text of `key` with its {names} filled in, not escaped: for a message a page escapes when it shows it."""
        try:
            text = self.texts[key]
        except KeyError:
            raise Missing(f"{self.lang}: no text for {key!r}") from None
        return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)

    def __call__(self, key: str, **values: object) -> Markup:
        try:
            text = self.texts[key]
        except KeyError:
            raise Missing(f"{self.lang}: no text for {key!r}") from None
        return Markup(PLACEHOLDER.sub(lambda m: escape(values[m.group(1)]), escape(text)))


def parse(text: str, source: str) -> dict[str, str]:
    """key<TAB>text lines; # comments and blank lines skipped. ValueError naming the line for anything else."""
    texts: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, tab, value = line.partition("\t")
        if not tab or not key.isidentifier() or not value.strip():
            raise ValueError(f"{source}:{number}: not a key, a tab and a text")
        if key in texts:
            raise ValueError(f"{source}:{number}: {key!r} twice")
        texts[key] = value
    return texts


def read(lang: str, part: str = "") -> dict[str, str]:
    """The words of `lang`: the public pages' (lang/XX.txt), or a part's own (lang/PART/XX.txt: the console's, the
    hub's)."""
    where = f"lang/{part}/{lang}.txt" if part else f"lang/{lang}.txt"
    source = files("tenace.page_base").joinpath(*where.split("/"))
    return parse(source.read_text(encoding="utf-8"), where)


@cache
def words(lang: str) -> Words:
    """The words of one of LANGUAGES (read once)."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the pages speak {', '.join(LANGUAGES)}")
    return Words(lang, read(lang))


@cache
def console_words(lang: str) -> Words:
    """The director's console's words in one of LANGUAGES (lang/console/XX.txt, read once)."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the console speaks {', '.join(LANGUAGES)}")
    return Words(lang, read(lang, "console"))


@cache
def hub_words(lang: str) -> Words:
    """The hub's pages' words in one of LANGUAGES: the public pages' (rank, pair, contract...) and the hub's own
    (lang/hub/XX.txt), which say nothing the public ones say (ValueError naming the keys both have)."""
    public, own = words(lang).texts, read(lang, "hub")
    if both := sorted(set(public) & set(own)):
        raise ValueError(f"lang/hub/{lang}.txt: {', '.join(both)} in lang/{lang}.txt already")
    return Words(lang, {**public, **own})


def switcher(path: str, kept: Mapping[str, str] | None = None) -> list[tuple[str, str, str]]:
    """The language switcher of a served page: (language, its own name, this page in it) for each language; `kept`,
    the page's other query parameters (a club chosen), go along."""
    return [(lang, words(lang).name, f"{path}?{urlencode({**(kept or {}), 'lang': lang})}") for lang in LANGUAGES]


def language_of(asked: str | None, accept_language: str | None) -> str | None:
    """The page's language: `asked` (?lang=) when it is one of ours, else the browser's most wanted one of ours
    (Accept-Language), else None (the caller's default)."""
    if asked in LANGUAGES:
        return asked
    best: tuple[float, int, str] | None = None
    for position, item in enumerate((accept_language or "").split(",")):
        tag, *params = (part.strip() for part in item.split(";"))
        primary = tag.split("-")[0].lower()
        lang = ALIASES.get(primary, primary)
        if lang not in LANGUAGES:
            continue
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        # The highest weight wins; among equal weights, the first listed.
        if weight > 0 and (best is None or (-weight, position) < (-best[0], best[1])):
            best = (weight, position, lang)
    return best[2] if best is not None else None
