"""The message catalogue: every text the terminal shows, from one language loaded at a time.

Each language is a module tenace_terminal/lang/<code>.py holding MESSAGES = {key: text}. Loaded,
it is packed into one string ("\\0key\\1text\\0key\\1text...\\0") and the module is dropped: a dict
of ~140 small strings takes several times the RAM of the same text in one string.
"""

import sys

# Language codes, in menu order.
LANGUAGES = ("en", "sr", "sk", "lv", "he")
# Each language's name in itself, for the language menu.
LANGUAGE_NAMES = ("English", "Srpski", "Sloven\u010dina", "Latvie\u0161u", "\u05e2\u05d1\u05e8\u05d9\u05ea")
_RTL = ("he",)
_PACKAGE = "tenace_terminal.lang"
_KEY = "\x00"  # starts a key; cannot occur in a message
_TEXT = "\x01"  # ends a key, starts its text

_code = ""
_table = ""  # the current language, packed
_fallback = ""  # English, packed, loaded only if the current language lacks a key


def _load(code: str) -> str:
    """The packed catalogue of `code`; ImportError when its module is not in the firmware."""
    name = _PACKAGE + "." + code
    module = __import__(name, None, None, ("MESSAGES",))
    table = module.MESSAGES
    # Joined from a list sized once: no intermediate string per message, no list regrowth.
    parts = [_KEY] * (4 * len(table) + 1)
    i = 1
    for key in table:
        parts[i] = key
        parts[i + 1] = _TEXT
        parts[i + 2] = table[key]
        i += 4
    packed = "".join(parts)
    parts = None
    # Drop the module and its dict: only the packed string stays in RAM.
    module = table = None
    sys.modules.pop(name, None)
    package = sys.modules.get(_PACKAGE)
    if package is not None and hasattr(package, code):
        delattr(package, code)
    return packed


def set_language(code: str) -> None:
    """Use `code` from now on. ValueError for an unknown code; ImportError (not in the firmware) or
    MemoryError put the language in use back."""
    global _code, _table, _fallback
    if code not in LANGUAGES:
        raise ValueError("unknown language %r" % (code,))
    if code == _code:
        return
    # Let the old catalogue go before the new one is built: the heap holds one at a time.
    _table = _fallback = ""
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


def _find(table: str, key: str):
    start = table.find(_KEY + key + _TEXT)
    if start < 0:
        return None
    start += len(key) + 2
    return table[start:table.find(_KEY, start)]


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
