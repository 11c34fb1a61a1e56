"""The console's action forms read into the director's typed inputs, each bound to its action; refusals worded."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.director.inputs import MOVE_KINDS, Erasure, Penalty, Place, ResultInput, Signature
from tenace.web.words import PLACEHOLDER, console_words

MOVES = MOVE_KINDS
# The form's fields as a refusal names them, after their labels on the page (a field not here: by its own name).
LABELS = {"ns": "NS", "ew": "EW", "percent": "NS/EW %", "assigned": "assigned NS score",
          "ew_assigned": "East-West's assigned NS score", "ew_weighted": "East-West's weighted",
          "passed_out": "passed out", "not_played": "not played", "to": "to round", "other": "swap with"}

Form = dict[str, str]
Bound = Callable[[sqlite3.Connection, Signature], str]  # an action with its input read from the form


def whole(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdecimal() or len(text) > 6:  # isdigit() would take "²", which int() refuses
        raise DirectorInputError(name, ": give a whole number", text=text)
    return int(text)


def place(form: Form) -> Place:
    return Place(whole("table", form.get("table")), whole("board", form.get("board")), form.get("section"),
                 whole("round", form.get("round")))


def result(form: Form) -> ResultInput | None:
    return parse.result(contract=form.get("contract"), by=form.get("by"), tricks=form.get("tricks"),
                        lead=form.get("lead"), passed_out="passed_out" in form, not_played="not_played" in form)


def adjust_form(form: Form) -> Bound:
    given = parse.adjustment(place(form), pair=form.get("pair"), penalty=form.get("penalty"), ns=form.get("ns"),
                             ew=form.get("ew"), percent=form.get("percent"), assigned=form.get("assigned"),
                             weighted=form.get("weighted"), ew_assigned=form.get("ew_assigned"),
                             ew_weighted=form.get("ew_weighted"))
    if isinstance(given, Penalty):
        return lambda conn, signed: actions.penalise(conn, given, signed)
    return lambda conn, signed: actions.adjust(conn, given, signed)


def correct_form(form: Form) -> Bound:
    given = parse.correction(place(form), result(form))
    return lambda conn, signed: actions.correct(conn, given, signed)


def erase_form(form: Form) -> Bound:
    given = Erasure(place(form))
    return lambda conn, signed: actions.erase(conn, given, signed)


def resolve_form(form: Form) -> Bound:
    given = parse.resolution(place(form), form.get("keep"), result(form))
    return lambda conn, signed: actions.resolve(conn, given, signed)


def move_form(form: Form) -> Bound:
    change = form.get("change", "")
    kind = next((k for k in MOVES if k == change), None)
    # A pair left empty is refused by the pair's parser, saying which ("swap with ''").
    given = parse.movement_change(kind, first_round=whole("round", form.get("round")),
                                  last_round=whole("to", form.get("to")), pair=form.get("pair", ""),
                                  other=form.get("other", ""), table=whole("table", form.get("table")),
                                  section=form.get("section"))
    return lambda conn, signed: actions.move(conn, given, signed)


# Each form's reader: the form's fields into the action's input (DirectorInputError naming a field), bound to it.
ACTIONS: dict[str, Callable[[Form], Bound]] = {"adjust": adjust_form, "correct": correct_form, "erase": erase_form,
                                               "resolve": resolve_form, "move": move_form}


def one_line(e: Exception) -> str:
    """A refusal as the page says it, on one line: the director's naming the form's fields, the store's as it is."""
    if isinstance(e, DirectorInputError):
        return e.said(LABELS)
    return str(e).splitlines()[0] if str(e) else type(e).__name__




# Each form's fields (a refusal naming one is shown beside it; naming another, atop the form).
_SLOT = {"section", "table", "board", "round"}
_SIGNED = {"why", "force"}
_RESULT = {"contract", "by", "tricks", "lead", "passed_out", "not_played"}
FIELDS: dict[str, frozenset[str]] = {
    "adjust": frozenset(_SLOT | _SIGNED | {"ns", "ew", "percent", "assigned", "weighted", "ew_assigned", "ew_weighted",
                                           "pair", "penalty"}),
    "correct": frozenset(_SLOT | _RESULT | _SIGNED), "erase": frozenset(_SLOT | _SIGNED),
    "resolve": frozenset(_SLOT | _RESULT | _SIGNED | {"keep"}),
    "move": frozenset(_SIGNED | {"change", "pair", "other", "table", "section", "round", "to"}),
}
# The director's messages the console words in every language (DirectorInputError.message -> its key in
# lang/console/XX.txt); the others are said in English, their fields named in the page's language.
REFUSALS = {": give a whole number": "refusal_whole",
            "{why} is required: say why (it is logged with who and when)": "refusal_why",
            "{field}: say which pair": "refusal_pair"}
# A field whose label's key is not its own name.
LABEL_KEYS = {"to": "to_round"}


def worded(e: DirectorInputError, lang: str) -> str:
    """The refusal in the console's language `lang`, its fields named by the page's labels."""
    if lang == "en":
        return one_line(e)  # English: the labels of LABELS, as the console has always said it
    texts = console_words(lang).texts
    names = {field: texts[LABEL_KEYS.get(field, field)] for fields in FIELDS.values() for field in fields
             if LABEL_KEYS.get(field, field) in texts}
    template = texts.get(REFUSALS.get(e.message, ""))
    if template is None:
        return e.said(names).splitlines()[0]
    values = {**names, **e.values, "field": names.get(e.field, e.field), "text": repr(e.text)}
    return PLACEHOLDER.sub(lambda m: values.get(m[1], m[1]), template)
