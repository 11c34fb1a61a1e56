"""The message catalogue: every text the terminal shows, from one language loaded at a time.

Each language is a module tenace_terminal/lang/<code>.py holding TEXT, a tuple of a few strings (one
per section of the catalogue) that the compiler folds from one literal per message ("\\n<key>\\t<text>"
... "\\n"). Loaded, only those strings stay in RAM (the module is dropped); frozen into flash they cost
no RAM at all. A dict of ~150 small strings would take several times as much, and its keys would be
interned as qstrs for good.
"""

import sys

# Language codes, in menu order.
LANGUAGES = ("en", "sr", "sk", "lv", "he")
# Each language's name in itself, for the language menu.
LANGUAGE_NAMES = ("English", "Srpski", "Sloven\u010dina", "Latvie\u0161u", "\u05e2\u05d1\u05e8\u05d9\u05ea")
_RTL = ("he",)
_PACKAGE = "tenace_terminal.lang"
_KEY = "\n"  # starts a key; cannot occur in a message
_TEXT = "\t"  # ends a key, starts its text

_code = ""
_table = ()  # the current language's TEXT
_fallback = ()  # English's, loaded only if the current language lacks a key


def _load(code: str) -> tuple:
    """The TEXT of `code`; ImportError when its module is not in the firmware."""
    name = _PACKAGE + "." + code
    table = __import__(name, None, None, ("TEXT",)).TEXT
    # Drop the module: only its string stays in RAM.
    sys.modules.pop(name, None)
    package = sys.modules.get(_PACKAGE)
    if package is not None and hasattr(package, code):
        delattr(package, code)
    return table


def set_language(code: str) -> None:
    """Use `code` from now on. ValueError for an unknown code; ImportError (not in the firmware) or
    MemoryError put the language in use back."""
    global _code, _table, _fallback
    if code not in LANGUAGES:
        raise ValueError("unknown language %r" % (code,))
    if code == _code:
        return
    # Let the old catalogue go before the new one is built: the heap holds one at a time.
    _table = _fallback = ()
    try:
        _table = _load(code)
    except (ImportError, MemoryError):
        if _code:
            _table = _load(_code)
        raise
    _code = code


def language() -> str:
    """The code of the language in use."""
    return _code


def is_rtl() -> bool:
    """True when the language in use is written right to left (the display mirrors its lines)."""
    return _code in _RTL


def _find(table: tuple, key: str):
    needle = _KEY + key + _TEXT
    for part in table:
        start = part.find(needle)
        if start >= 0:
            start += len(needle)
            return part[start:part.find(_KEY, start)]
    return None


def text(key: str, *args) -> str:
    """The message `key` in the current language, with its %s/%d placeholders filled from args."""
    global _fallback
    template = _find(_table, key)
    if template is None:
        if not _fallback and _code != "en":
            _fallback = _load("en")
        template = _find(_fallback, key) if _fallback else None
        if template is None:
            template = key
    if not args:
        return template
    try:
        return template % args
    except (TypeError, ValueError):
        # A translation with the wrong placeholders must not stop the terminal: its words, then the values.
        return template + " " + " ".join([str(a) for a in args])


set_language("en")
