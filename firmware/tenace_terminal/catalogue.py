"""The message catalogue: every text the terminal shows, read from its language's file when shown.

Each language is a text file tenace_terminal/lang/<code>.txt, one "<key>\\t<text>" line a message. A
text is read from the file each time it is shown, found through a small hash index of where each line
starts, so the catalogue costs 512 bytes of RAM: loaded into the heap, the English one alone would take
some 5 KB of a terminal's few tens.
"""

import gc
from array import array

from micropython import const

_RTL = const(("he",))
_SLOTS = const(256)  # index slots: room for the ~150 keys with few collisions

# The folder of the catalogue files: lang/ beside this module. A frozen image keeps them on the filesystem
# and sets this to where they are.
folder = __file__.rsplit("/", 1)[0] + "/lang/" if "/" in __file__ else "lang/"

_code = "en"
_index = None  # slot (hash of "<key>\t" % _SLOTS) -> 1 + the byte offset of its line; 0 for none


def _open(code: str):
    return open(folder + code + ".txt", "rb")


def _build_index(code: str):
    """The index of `code`'s catalogue; OSError when the file cannot be read."""
    index = array("H", bytes(2 * _SLOTS))
    offset = 0
    with _open(code) as f:
        for line in f:
            tab = line.find(b"\t")
            if tab > 0 and line[0] != 35:  # not a "#" comment
                slot = hash(line[:tab + 1]) % _SLOTS
                while index[slot]:
                    slot = (slot + 1) % _SLOTS
                index[slot] = offset + 1
            offset += len(line)
    if hasattr(gc, "threshold"):
        # MicroPython: each line read was garbage. Collected now, before the next module's code is loaded above
        # it, the heap stays in one piece: without this the session's smallest heap is 1 KB larger.
        gc.collect()
    return index


def _find(code: str, index, needle: bytes):
    """The text of `needle` (b"<key>\\t") in `code`'s catalogue, through `index` or, without one, line by line."""
    with _open(code) as f:
        if index is None:
            for line in f:
                if line.startswith(needle):
                    return line[len(needle):].rstrip(b"\r\n").decode()
            return None
        slot = hash(needle) % _SLOTS
        while index[slot]:
            f.seek(index[slot] - 1)
            line = f.readline()
            if line.startswith(needle):
                return line[len(needle):].rstrip(b"\r\n").decode()
            slot = (slot + 1) % _SLOTS
    return None


def set_language(code: str) -> None:
    """Use `code` (ISO 639-1) from now on. ValueError for what is no such code, OSError when its catalogue
    is not in the firmware; the language in use stays."""
    global _code, _index
    if len(code) != 2 or not ("a" <= code[0] <= "z" and "a" <= code[1] <= "z"):
        raise ValueError("not a language code: %r" % (code,))
    _index = None  # let the old index go before the new one is built
    try:
        _index = _build_index(code)
    except OSError:
        _index = _build_index(_code)
        raise
    _code = code


def language() -> str:
    """The code of the language in use."""
    return _code


def is_rtl() -> bool:
    """True when the language in use is written right to left (the display mirrors its lines)."""
    return _code in _RTL


def text(key: str, *args) -> str:
    """The message `key` in the current language (else in English, else the key itself), with its
    %s/%d placeholders filled from args."""
    global _index
    needle = key.encode() + b"\t"
    try:
        if _index is None:
            try:
                _index = _build_index(_code)
            except MemoryError:
                pass  # no room for the index now: this text is found line by line, the next tries again
        template = _find(_code, _index, needle)
        if template is None and _code != "en":
            template = _find("en", None, needle)  # rare: a key the translation lacks
    except OSError:  # a catalogue lost from flash: the key still says something
        template = None
    if template is None:
        template = key
    if not args:
        return template
    try:
        return template % args
    except (TypeError, ValueError):
        # A translation with the wrong placeholders must not stop the terminal: its words, then the values.
        return template + " " + " ".join([str(a) for a in args])


# The index is made now, while the heap is still in one piece; text() makes it later if this cannot.
try:
    _index = _build_index(_code)
except OSError:
    pass
