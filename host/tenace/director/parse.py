"""The director's inputs from their text (options, form fields) to their types; refusals name the field at fault."""

from __future__ import annotations

import re
from fractions import Fraction

from tenace.director.errors import DirectorInputError
from tenace.director.inputs import (
    Adjustment,
    Artificial,
    Assigned,
    Correction,
    Finish,
    Keep,
    MoveKind,
    MovementChange,
    Penalty,
    Place,
    Resolution,
    ResultInput,
    Seating,
    Signature,
    Weights,
)
from tenace.store import login_name
from tenace.store.director import MAX_CORRECTION_MINUTES
from tenace.store.validate import MAX_SCORE
from tenace_wire.frame_types import MAX_TERMINAL


def signature(who: str | None, why: str | None, force: bool = False, default_why: str | None = None) -> Signature:
    """Why is required (Law 79C: every change is explained); who defaults to the user logged in."""
    why = why if why is not None else default_why
    if why is None or not why.strip():
        raise DirectorInputError("why", "{why} is required: say why (it is logged with who and when)")
    return Signature(who if who is not None else login_name(), why, force)


_PERCENT_SPLIT = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*/\s*(\d{1,3}(?:\.\d{1,2})?)\s*%?\s*$")


def percent_split(text: str, field: str = "percent") -> Artificial:
    """ "60/40" or "60%/40%" as the two sides' percentages ("60%", "40%"); each 0 to 100."""
    match = _PERCENT_SPLIT.match(text)
    if match is None:
        raise DirectorInputError(field, ": give NS then EW, such as 60/40", text=text)
    for side, value in zip(("NS", "EW"), match.groups(), strict=True):
        if float(value) > 100:
            raise DirectorInputError(field, ": {side} {value}% is over 100%", text=text, side=side, value=value)
    return Artificial(f"{match[1]}%", f"{match[2]}%")


_SCORE = re.compile(r"^[+-]?\d{1,4}$")
_WEIGHT = re.compile(r"^(\d{1,3}(?:\.\d{1,6})?%|\d{1,2}/\d{1,3}|0?\.\d{1,6}|1(?:\.0*)?)$")


def ns_score(field: str, text: str) -> int:
    t = text.strip()
    if not _SCORE.match(t):
        raise DirectorInputError(field, ": an NS score is a whole number such as +420 or -50", text=text)
    return _possible(field, text, int(t))


def _possible(field: str, text: str, score: int) -> int:
    """The score when a contract can score it at all (the board's vulnerability is checked with the event file)."""
    if abs(score) > MAX_SCORE:
        raise DirectorInputError(field, ": not a possible score: no contract scores more than {most} either way",
                                 text=text, most=str(MAX_SCORE))
    return score


def weights(field: str, text: str) -> Weights:
    """ "0.6:+420,0.4:-50" (weights as decimals, fractions or percentages) as (weight, NS score) pairs."""
    parts = [part.strip() for part in re.split(r"[,;]", text) if part.strip()]
    if not parts:
        raise DirectorInputError(field, ": give weight:NS score pairs, such as 0.6:+420,0.4:-50", text=text)
    out = []
    for part in parts:
        weight, colon, score = part.partition(":")
        weight = weight.strip()
        if not colon or not _WEIGHT.match(weight) or not _SCORE.match(score.strip()):
            raise DirectorInputError(field, "{field}: {part} is not weight:NS score, such as 0.6:+420", part=repr(part))
        value = Fraction(weight[:-1]) / 100 if weight.endswith("%") else Fraction(weight)
        out.append((value, _possible(field, text, int(score))))
    total = sum((w for w, _ in out), Fraction(0))
    if total != 1:
        raise DirectorInputError(field, ": the weights add up to {total}, not 1", text=text, total=f"{float(total):g}")
    return tuple(out)


_AMOUNT = re.compile(r"^\s*(\d{1,4}(?:\.\d{1,2})?)\s*(%|MP)\s*$", re.IGNORECASE)
# The adjusted score's fields, in the order a refusal lists them.
SCORE_FIELDS = ("ns", "ew", "percent", "assigned", "weighted", "ew_assigned", "ew_weighted")


def adjustment(place: Place, *, pair: str | None = None, penalty: str | None = None, ns: str | None = None,
               ew: str | None = None, percent: str | None = None, assigned: str | None = None,
               weighted: str | None = None, ew_assigned: str | None = None,
               ew_weighted: str | None = None) -> Adjustment | Penalty:
    """The adjusted score the fields give, or the Law 90 penalty when a pair or a penalty is given."""
    scores = {"ns": ns, "ew": ew, "percent": percent, "assigned": assigned, "weighted": weighted,
              "ew_assigned": ew_assigned, "ew_weighted": ew_weighted}
    if penalty is not None or pair is not None:
        return _penalty(place, pair, penalty, scores)
    given = [f for f, v in (("{ns}/{ew}", ns is not None or ew is not None), ("{percent}", percent is not None),
                            ("{assigned}", assigned is not None), ("{weighted}", weighted is not None)) if v]
    split = [f for f in ("ew_assigned", "ew_weighted") if scores[f] is not None]
    if split and assigned is None and weighted is None:
        raise DirectorInputError(split[0], "{field} is East-West's side of a split score: give North-South's with "
                                 "{assigned} or {weighted}")
    if len(given) != 1:
        what = f"not {' and '.join(given)}" if given else "none was given"
        raise DirectorInputError("ns", "give one adjusted score ({ns}/{ew}, {percent}, {assigned}, {weighted} or "
                                 "{penalty}): " + what)
    if ns is not None or ew is not None:
        if ns is None or ew is None:
            raise DirectorInputError("ew" if ew is None else "ns",
                                     "an artificial score is given to both sides: {ns} A+ {ew} A-")
        return Adjustment(place, Artificial(ns, ew))
    if percent is not None:
        return Adjustment(place, percent_split(percent))
    ns_weights = ((Fraction(1), ns_score("assigned", assigned)),) if assigned is not None else \
        weights("weighted", weighted or "")
    if ew_assigned is not None and ew_weighted is not None:
        raise DirectorInputError("ew_weighted", "give East-West's own score once: {ew_assigned} or {ew_weighted}, "
                                 "not both")
    ew_weights = ((Fraction(1), ns_score("ew_assigned", ew_assigned)),) if ew_assigned is not None else \
        weights("ew_weighted", ew_weighted) if ew_weighted is not None else None
    return Adjustment(place, Assigned(ns_weights, ew_weights))


def _penalty(place: Place, pair: str | None, penalty: str | None, scores: dict[str, str | None]) -> Penalty:
    if penalty is None or pair is None:
        raise DirectorInputError("pair" if pair is None else "penalty",
                                 'a penalty needs both {pair} and {penalty}: {pair} "NS 3" {penalty} 25%')
    others = [f for f, v in (("table", place.table), ("round", place.round), *scores.items()) if v is not None]
    if others:
        raise DirectorInputError(others[0], "a penalty is against a pair, not a table's result: drop "
                                 + ", ".join(f"{{{f}}}" for f in others))
    amount = _AMOUNT.match(penalty)
    if amount is None:
        raise DirectorInputError("penalty", ": a percentage of a top, 25%, or matchpoints, 1.5MP", text=penalty)
    return Penalty(pair, Fraction(amount[1]), "%top" if amount[2] == "%" else "MP", place.section, place.board)


def result(*, contract: str | None = None, by: str | None = None, tricks: str | None = None,
           lead: str | None = None, passed_out: bool = False, not_played: bool = False) -> ResultInput | None:
    """The result the fields give; None when none is given."""
    chosen = [f for f, given in (("contract", contract is not None), ("passed_out", passed_out),
                                 ("not_played", not_played)) if given]
    if len(chosen) > 1:
        raise DirectorInputError(chosen[1], "give one result: " + " or ".join(f"{{{f}}}" for f in chosen))
    if passed_out or not_played:
        extra = [f for f, v in (("by", by), ("tricks", tricks), ("lead", lead)) if v is not None]
        if extra:
            raise DirectorInputError(extra[0], f"{{{chosen[0]}}} takes no " + ", ".join(f"{{{f}}}" for f in extra))
        return ResultInput("passed_out" if passed_out else "not_played")
    if contract is None:
        if by is not None or tricks is not None:
            raise DirectorInputError("contract", "{by} and {tricks} go with {contract}")
        return None
    if by is None or tricks is None:
        raise DirectorInputError("by" if by is None else "tricks",
                                 "a contract needs its declarer and tricks: {contract} 4S {by} N {tricks} 10")
    return ResultInput("normal", contract, by, int(tricks) if tricks.isdecimal() else tricks, lead)


def correction(place: Place, given: ResultInput | None) -> Correction:
    if given is None:
        raise DirectorInputError("contract", "give the right result: {contract} 4S {by} N {tricks} 10, "
                                 "{passed_out} or {not_played}")
    return Correction(place, given)


def resolution(place: Place, keep: str | None, given: ResultInput | None) -> Resolution:
    """The result kept (`keep`: its id, 17, or its version, v2) or the right one; one of them."""
    if (given is None) == (keep is None):
        raise DirectorInputError("keep", "give {keep} (a result id or version) or the right result ({contract} ..., "
                                 "{passed_out}, {not_played}), one of them")
    if keep is None:
        assert given is not None
        return Resolution(place, given)
    text = keep.strip()
    version = re.fullmatch(r"[vV](\d{1,4})", text)
    if version is None and not text.isdecimal():
        raise DirectorInputError("keep", ": a result id (17) or a version (v2)", text=keep)
    return Resolution(place, Keep(text, version=int(version[1])) if version else Keep(text, id=int(text)))


def movement_change(kind: MoveKind | None, *, first_round: int | None, last_round: int | None = None,
                    pair: str | None = None, other: str | None = None, table: int | None = None,
                    section: str | None = None) -> MovementChange:
    """The change `kind` from `first_round` on: `pair` late, leaving, absent or present (the last two to
    `last_round`), `table` closed, or `pair` and `other` swapped."""
    if first_round is None:
        raise DirectorInputError("round", "say from which round: {round} R")
    if last_round is not None and kind not in ("absent", "present"):
        raise DirectorInputError("to", "{to} goes with {absent} or {present}")
    if kind is None:
        raise DirectorInputError("change", "say what changes: {late}, {leave}, {absent}, {present}, {close} or {swap}")
    if kind == "close" and table is None:
        raise DirectorInputError("table", "{close}: say which table")
    if kind != "close" and pair is None:
        raise DirectorInputError("pair", "{field}: say which pair")
    return MovementChange(kind, first_round, pair, other if kind == "swap" else None,
                          table if kind == "close" else None, last_round, section)


def finish(minutes: int) -> Finish:
    if not 0 <= minutes <= MAX_CORRECTION_MINUTES:
        raise DirectorInputError("correction_minutes", "{correction_minutes} is 0 to {high}, not {minutes}",
                                 high=str(MAX_CORRECTION_MINUTES), minutes=str(minutes))
    return Finish(minutes)


def seating(terminal: int | None, table: int | None, section: str | None, who: str) -> Seating:
    """A terminal (1 to the wire's highest id) seated at a table of a section (A when not said)."""
    if terminal is None or not 1 <= terminal <= MAX_TERMINAL:
        raise DirectorInputError("terminal", "{terminal} is a terminal's id, 1 to {high}", high=str(MAX_TERMINAL))
    if table is None:
        raise DirectorInputError("table", "say which table the terminal now serves: {table} T")
    return Seating(terminal, table, section or "A", who)
