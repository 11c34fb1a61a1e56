"""The messages between the app and its link, by their "type": each kind is a named constant in the modules that use
it (_MSG_<KIND> = const("<kind>"): inlined by mpy-cross, no global on the device), and the mapping covers every one:
what the app sends, the link takes (WireLink.send); what the link delivers (wire_link.py, wire_mapping.py), the
app handles (App._on_message, or a screen's message()); the journal's own records never reach the link.

Reads the firmware's sources, found beside this file's folder, or where TENACE_FIRMWARE names them (under
MicroPython, where tests/test_terminal_on_micropython.py runs the compiled tests elsewhere).
Pytest and MicroPython (the same file).
"""

import os

APP_SENDS = ("result", "players", "sign_in", "round_request", "ranking_request", "probe", "call")
LINK_DELIVERS = ("ack", "sign_in_ok", "round_plan", "traveller", "ranking", "message", "probe", "director")
JOURNAL_ONLY = ("session_over", "lang", "tally")  # the app's own records: replayed, never sent
LINK_SIDE = ("wire_link", "wire_mapping")


def _package():
    folder = os.getenv("TENACE_FIRMWARE")
    if not folder:
        here = __file__.replace("\\", "/")
        folder = here[:here.rfind("/tests/")] + "/firmware"
    return folder + "/tenace_terminal/"


def _sources():
    """{module name ("app", "screens/factory"): its lines that matter here}: those that speak of a "type" or a
    _MSG_ constant, and every def and class (where a function ends); docstrings and comments left out. Read a line
    at a time: the whole of the sources would not fit a terminal-sized heap."""
    package = _package()
    found = {}
    for sub in ("", "screens/"):
        for name in sorted(os.listdir(package + sub)):
            if name.endswith(".py"):
                with open(package + sub + name) as f:
                    found[sub + name[:-3]] = _code(f)
    return found


def _code(lines_in):
    lines = []
    in_doc = False
    for line in lines_in:
        line = line.rstrip()
        if line.count('"""') % 2:
            in_doc = not in_doc
            continue
        stripped = line.lstrip()
        if in_doc or stripped.startswith("#"):
            continue
        if "_MSG_" in line or '"type"' in line or stripped.startswith(("def ", "class ")):
            lines.append(line)
    return lines


def _body(lines, name):
    """The lines of function `name`: its def and those kept up to the next def or class no deeper than it."""
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("def " + name + "("):
            indent = len(line) - len(stripped)
            end = i + 1
            while end < len(lines):
                other = lines[end].lstrip()
                if other.startswith(("def ", "class ")) and len(lines[end]) - len(other) <= indent:
                    break
                end += 1
            return lines[i:end]
    raise AssertionError("no function %s" % name)


def _words(line):
    """The names in `line` (and what else is made of letters, digits and _)."""
    words = []
    word = ""
    for c in line + " ":
        if c.isalpha() or c.isdigit() or c == "_":
            word += c
        elif word:
            words.append(word)
            word = ""
    return words


def _name(kind):
    return "_MSG_" + kind.upper()


def _uses(lines, text):
    return any(text in line for line in lines)


def _declared(lines):
    """{kind: its constant's name} of the _MSG_ constants declared in `lines`."""
    found = {}
    for line in lines:
        if line.startswith("_MSG_"):
            name, _, value = line.partition(" = ")
            assert value.startswith('const("') and value.endswith('")'), line
            found[value[7:-2]] = name
    return found


def test_every_kind_is_a_named_constant_of_its_own_name():
    kinds = APP_SENDS + LINK_DELIVERS + JOURNAL_ONLY
    seen = set()
    for module, lines in _sources().items():
        declared = _declared(lines)
        for kind, name in declared.items():
            assert kind in kinds, "%s: %s is not a kind the app and link know" % (module, kind)
            assert name == _name(kind), "%s: %s names %r" % (module, name, kind)
        seen.update(declared)
        for line in lines:
            if '"type": ' in line or '"type") ' in line or '"type"] ' in line:
                rest = line.split('"type"', 1)[1].lstrip(":)] =!")
                assert rest.startswith("_MSG_"), "%s: a kind by its text, not its name: %s" % (module, line.strip())
            for word in _words(line):
                if word.startswith("_MSG_") and not line.startswith(word + " = const("):
                    assert word.lower()[5:] in declared, "%s: %s used, not declared" % (module, word)
    assert sorted(seen) == sorted(set(kinds)), "kinds declared nowhere: %s" % [k for k in kinds if k not in seen]


def test_what_the_app_sends_the_link_takes():
    sources = _sources()
    send = _body(sources["wire_link"], "send")
    for kind in APP_SENDS:
        made = [m for m, lines in sources.items() if m not in LINK_SIDE and _uses(lines, '"type": ' + _name(kind))]
        assert made, "the app never makes a %s" % kind
        assert _uses(send, "== " + _name(kind)), "WireLink.send drops the app's %s" % kind


def test_what_the_link_delivers_the_app_handles():
    sources = _sources()
    handlers = _body(sources["app"], "_on_message")
    for module, lines in sources.items():
        if module.startswith("screens/") and _uses(lines, "def message("):
            handlers = handlers + _body(lines, "message")
    for kind in LINK_DELIVERS:
        assert any(_uses(sources[m], '"type": ' + _name(kind)) for m in LINK_SIDE), "the link never delivers %s" % kind
        assert _uses(handlers, "= " + _name(kind)), "nothing in the app handles the link's %s" % kind


def test_the_journals_own_records_stay_on_the_terminal():
    sources = _sources()
    apply = _body(sources["app"], "_apply")
    for kind in JOURNAL_ONLY:
        for module in LINK_SIDE:
            assert not _uses(sources[module], _name(kind)), "%s speaks of the journal's %s" % (module, kind)
        assert _uses(apply, "== " + _name(kind)), "App._apply does not replay %s" % kind
