"""The console's action forms read into the director's typed inputs, each bound to its action; refusals worded."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping
from functools import cache

from tenace.director import actions, parse
from tenace.director.errors import DirectorInputError
from tenace.director.inputs import (
    MOVE_KINDS,
    Adjustment,
    Artificial,
    Assigned,
    Erasure,
    Penalty,
    Place,
    ResultInput,
    Signature,
)
from tenace.errors import Refused
from tenace.page_base.words import PLACEHOLDER, console_words
from tenace.store import EntryError, LateChange
from tenace.web.console.room import SPOKEN

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


def adjustment(form: Form) -> Adjustment | Penalty:
    return parse.adjustment(place(form), pair=form.get("pair"), penalty=form.get("penalty"), ns=form.get("ns"),
                            ew=form.get("ew"), percent=form.get("percent"), assigned=form.get("assigned"),
                            weighted=form.get("weighted"), ew_assigned=form.get("ew_assigned"),
                            ew_weighted=form.get("ew_weighted"))


def adjust_form(form: Form) -> Bound:
    given = adjustment(form)
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


def warnings_of(name: str, form: Form) -> list[str]:
    """What an action done with `form` warns of, as keys of lang/console/XX.txt: a weighted or split score, or a
    percentage of 60, 50 or 40 (a USEBIO file reads A6040 back as average plus and minus, Law 12C2(c)), which a USEBIO
    file cannot hold (the export will refuse it; PBN holds it)."""
    if name != "adjust":
        return []
    given = adjustment(form)
    if isinstance(given, Adjustment) and isinstance(given.score, Assigned) and not given.score.one_score:
        return ["warn_usebio_split" if given.score.ew_weights is not None else "warn_usebio_weighted"]
    if isinstance(given, Adjustment) and isinstance(given.score, Artificial) and any(
            side.endswith("%") and float(side[:-1]) in (40, 50, 60) for side in (given.score.ns, given.score.ew)):
        return ["warn_usebio_average"]
    return []


# The store's field checks of a result the console words (EntryError.reason -> the field it concerns); the key of
# each in lang/console/XX.txt is entry_REASON.
ENTRY_FIELDS = {"bad_contract": "contract", "bad_declarer": "by", "bad_tricks": "tricks", "bad_lead": "lead",
                "inconsistent": ""}


def one_line(e: Exception) -> str:
    """A refusal as the page says it, on one line, in the page's language: the director's naming the form's fields
    (worded), a result's field check (EntryError.reason) and a refusal to start listening or play simulated tables
    (Refused.reason) by their codes, the store's other refusals as they are."""
    if isinstance(e, DirectorInputError):
        return worded(e, SPOKEN.get())
    lang = SPOKEN.get()
    if isinstance(e, Refused):  # the English page's too: en.txt says it for the page, not for the command line
        return console_words(lang).plain(f"lr_{e.reason}", **e.values)
    if isinstance(e, EntryError) and e.reason in ENTRY_FIELDS and lang != "en":
        return console_words(lang).plain(f"entry_{e.reason}")
    if isinstance(e, LateChange) and lang != "en":  # the store's English names the times: the page's words do not
        return console_words(lang).plain("late_change_why")
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
# A field's label on the pages: its key in lang/console/XX.txt ("": the refusal names no field, as the set-up's
# text areas, whose refusal is beside them).
LABEL_KEYS = {**{f: f for f in ("ns", "ew", "percent", "assigned", "weighted", "ew_assigned", "ew_weighted", "pair",
                                "penalty", "section", "table", "board", "round", "contract", "by", "tricks", "lead",
                                "passed_out", "not_played", "keep", "change", "other", "why", "force", "terminal",
                                "date", "scoring", "movement", "tables", "boards_per_round", "rounds", "club",
                                "club_id")},
              "to": "to_round", "correction_minutes": "minutes", "name": "event_name", "phantom": "half_table",
              "roster": "", "pairs": "", "deals": "", "sections": ""}
# The refusals built of a list of fields ("give one result: {contract} or {passed_out}"): the list, its fields named
# and its "or"/"and" said in the page's language, goes into the key's {fields}.
LISTED = ((re.compile(r"say where the result is: (?P<fields>.+)"), "refusal_where"),
          (re.compile(r"give one adjusted score \(\{ns\}/\{ew\}, \{percent\}, \{assigned\}, \{weighted\} or "
                      r"\{penalty\}\): none was given"), "refusal_one_adjusted_none"),
          (re.compile(r"give one adjusted score \(\{ns\}/\{ew\}, \{percent\}, \{assigned\}, \{weighted\} or "
                      r"\{penalty\}\): not (?P<fields>.+)"), "refusal_one_adjusted_not"),
          (re.compile(r"a penalty is against a pair, not a table's result: drop (?P<fields>.+)"), "refusal_drop"),
          (re.compile(r"give one result: (?P<fields>.+)"), "refusal_one_result"),
          (re.compile(r"\{(?P<first>\w+)\} takes no (?P<fields>.+)"), "refusal_takes_no"))
_LISTED_KEYS = frozenset(key for _, key in LISTED)
_QUOTED = "{field} {text}"  # a refusal of a typed text starts "NAME 'TEXT'" (DirectorInputError.said)


@cache
def refusals() -> dict[str, str]:
    """The director's messages the console words (DirectorInputError.message -> its key in lang/console/XX.txt), read
    from en.txt, whose refusal_* texts are the director's messages as the command line says them."""
    english = console_words("en").texts
    return {text.removeprefix(_QUOTED): key for key, text in english.items()
            if key.startswith("refusal_") and key not in _LISTED_KEYS}


def worded(e: DirectorInputError, lang: str, english: Mapping[str, str] = LABELS) -> str:
    """The refusal in the console's language `lang`, its fields named by the page's labels (`english`: the English
    page's names, which the console has always used); one line."""
    if lang == "en":
        return e.said(english).splitlines()[0]
    words = console_words(lang)
    names = {field: words.texts[key] if key else "" for field, key in LABEL_KEYS.items()}
    values: dict[str, str] = {**names, **e.values, "field": names.get(e.field, e.field), "text": repr(e.text)}
    key = refusals().get(e.message)
    for pattern, listed in LISTED if key is None else ():
        found = pattern.fullmatch(e.message)
        if found:
            key = listed
            joined = found.groupdict().get("fields") or ""
            joined = joined.replace(" or ", f" {words.texts['or']} ").replace(" and ", f" {words.texts['and']} ")
            values["fields"] = PLACEHOLDER.sub(lambda m: values.get(m[1], m[1]), joined)
            values["first"] = values.get(found.groupdict().get("first") or "", "")
            break
    if key is None:  # a message from elsewhere ("{why}": the movement checker's): English, its fields named
        return e.said(names).splitlines()[0]
    said = PLACEHOLDER.sub(lambda m: values.get(m[1], m[1]), words.texts[key])
    return said.strip().splitlines()[0]
