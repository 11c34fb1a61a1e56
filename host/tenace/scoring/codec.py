"""A result as the club stores and pushes it (its kind, Law 77 score, artificial sides, weights) read as a scoring
outcome, and an outcome as the hub's one-line key: the one codec of results, for the store, the hub and the files."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from tenace.scoring.model import (
    Artificial,
    Average,
    NotPlayed,
    Outcome,
    Played,
    Split,
    Weighted,
    weight_parts,
    weights_text,
)
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score as law77_score

AVERAGES = {"A+": Average.PLUS, "A": Average.EVEN, "A-": Average.MINUS}
# USEBIO's (and Compscore3's) artificial score: "A" then the NS and EW percentages, "A6040".
PERCENTAGES = re.compile(r"A(\d\d)(\d\d)")
# A file's 60, 50 and 40 are average plus, average and average minus (Law 12C2(a)): a pair's own session percentage may
# stand for them (Law 12C2(c)), as it does where the file was written from; other figures are as given.
_PERCENT_AVERAGES = {Fraction(60): Average.PLUS, Fraction(50): Average.EVEN, Fraction(40): Average.MINUS}
_AVERAGE_PERCENTS = {average: percent for percent, average in _PERCENT_AVERAGES.items()}
_PERCENT = re.compile(r"\d{1,3}(\.\d{1,2}|/\d{1,4})?%")
# A part of a weighted score, short (Fraction("1e999999") would build a million-digit number): "3/5:620", "0.6:-100".
_PART = re.compile(r"\d{1,6}(/\d{1,6}|\.\d{1,6})?:[+-]?\d{1,5}")


class Unreadable(ValueError):
    """A result that is not one the scoring can take: its one-line reason."""


def side(text: str | None) -> Average | Fraction:
    """An artificial score's side: A+, A, A- (Law 12C2(a)) or a percentage of the top, "65%"."""
    if text in AVERAGES:
        return AVERAGES[text]
    if text is None or not _PERCENT.fullmatch(text) or not 0 <= Fraction(text[:-1]) <= 100:
        raise Unreadable(f"an artificial score is A+, A, A- or a percentage of the top (65%), not {text!r}")
    return Fraction(text[:-1])


def side_text(value: Average | Fraction) -> str:
    """A side as `side` reads it."""
    return value.value if isinstance(value, Average) else f"{value}%"


def percent(value: Average | Fraction) -> Fraction:
    """A side as a file writes it, a percentage of the top: the averages as 60, 50 and 40, see above."""
    return _AVERAGE_PERCENTS[value] if isinstance(value, Average) else value


def from_percentages(ns: Fraction, ew: Fraction) -> Artificial:
    """A file's artificial score of two percentages (A6040): 60, 50 and 40 both ways are averages, see above."""
    if ns in _PERCENT_AVERAGES and ew in _PERCENT_AVERAGES:
        return Artificial(_PERCENT_AVERAGES[ns], _PERCENT_AVERAGES[ew])
    return Artificial(ns, ew)


def weighted(text: str | None, ew_text: str | None = None) -> Weighted | Split:
    """An assigned or weighted score (Law 12C1(b), (c)) as the club writes it: "1:620" or "3/5:620 2/5:-100", NS
    scores; a Split when East-West have their own (`ew_text`)."""
    ns = _weights(text, "weighted score")
    return Split(ns, _weights(ew_text, "East-West's weighted score")) if ew_text else ns


def _weights(text: str | None, what: str) -> Weighted:
    try:
        if not all(_PART.fullmatch(part) for part in (text or "").split()):
            raise ValueError("each part a weight and a score, 3/5:620")
        parts = weight_parts(text or "")
        if not parts or any(score % 10 for _, score in parts):
            raise ValueError("each part's score a multiple of 10")
        return Weighted(parts)
    except (ValueError, ZeroDivisionError) as e:
        raise Unreadable(f"a {what} is weights and NS scores, \"3/5:620 2/5:-100\", adding up to 1, not {text!r} "
                         f"({e})") from None


def outcome(kind: str | None, ns_score: int | None = None, ns_adjust: str | None = None,
            ew_adjust: str | None = None, weights: str | None = None, ew_weights: str | None = None) -> Outcome:
    """A result of this kind (normal, passed_out, not_played, artificial, weighted) with its fields, as the scoring
    takes it; Unreadable saying why when it cannot be."""
    if kind == "normal":
        if type(ns_score) is not int or ns_score % 10:
            raise Unreadable(f"a played result's NS score is a bridge score (+420, -50), not {ns_score!r}")
        return Played(ns_score)
    if kind == "passed_out":
        if ns_score not in (None, 0):
            raise Unreadable(f"a passed-out board scores 0, not {ns_score!r}")
        return Played(0)
    if kind == "not_played":
        return NotPlayed()
    if kind == "artificial":
        return Artificial(side(ns_adjust), side(ew_adjust))
    if kind == "weighted":
        return weighted(weights, ew_weights)
    raise Unreadable(f"a result is normal, passed_out, not_played, artificial or weighted, not {kind!r}")


def played(contract: str | None, declarer: str | None, tricks: int | None, board: int, ns_score: int | None) -> Played:
    """A played result with its score derived again by Law 77 (the board's vulnerability by Law 2); Unreadable when
    the contract cannot be read or the score given is not its score."""
    if contract is None or declarer is None or tricks is None:
        raise Unreadable("a played result needs its contract, declarer and tricks")
    try:
        score = _law77(contract, declarer, tricks, vulnerability(board))
    except ValueError as e:
        raise Unreadable(f"{contract} by {declarer} taking {tricks} tricks on board {board}: {e}") from None
    if score != ns_score:
        raise Unreadable(f"{contract} by {declarer} taking {tricks} tricks on board {board} scores NS {score:+d} "
                         f"by Law 77, not {ns_score!r}")
    return Played(score)


@lru_cache(maxsize=8192)  # a field plays the same few contracts: the hub derives each push's score
def _law77(contract: str, declarer: str, tricks: int, vul: str) -> int:
    parsed = parse_contract(contract)
    if parsed.passed_out:
        raise ValueError("a passed-out board is no played contract")
    if declarer not in ("N", "E", "S", "W"):
        raise ValueError(f"declarer is N, E, S or W, not {declarer!r}")
    return law77_score(parsed, declarer, vul, tricks)


def key(o: Outcome) -> str:
    """The outcome in one line, as the hub keeps it (a slot's `outcome`, a figure's): P420, AA+|A-, A60%|40%,
    W3/5:620 2/5:-100| (EW's weights after the bar when split), N for not played."""
    if isinstance(o, Played):
        return f"P{o.ns_score}"
    if isinstance(o, Artificial):
        return f"A{side_text(o.ns)}|{side_text(o.ew)}"
    if isinstance(o, Weighted):
        return f"W{weights_text(o.components)}|"
    if isinstance(o, Split):
        return f"W{weights_text(o.ns.components)}|{weights_text(o.ew.components)}"
    return "N"


def from_key(text: str) -> Outcome:
    """The outcome `key` wrote; Unreadable when it is not one."""
    kind, body = text[:1], text[1:]
    if kind == "P":
        try:
            return Played(int(body))
        except ValueError:
            raise Unreadable(f"a played outcome's score is a whole number, not {body!r}") from None
    if kind == "A":
        ns, _, ew = body.partition("|")
        return Artificial(side(ns), side(ew))
    if kind == "W":
        ns, _, ew = body.partition("|")
        return weighted(ns, ew or None)
    if text == "N":
        return NotPlayed()
    raise Unreadable(f"an outcome is P, A, W or N, not {text!r}")


def weighted_text(weights: str) -> str:
    """A stored weighted score as a TD reads it: "assigned NS +420" (one component of weight 1, Law 12C1(b)) or
    "weighted NS 3/5:420 2/5:-50" (Law 12C1(c))."""
    if weights.startswith("1:") and " " not in weights:
        return f"assigned NS {int(weights[2:]):+d}"
    return f"weighted NS {weights}"


def split_text(weights: str, ew_weights: str) -> str:
    """Law 12C1(b) scores that need not balance: "split: assigned NS +420 to NS, assigned NS +50 to EW"."""
    return f"split: {weighted_text(weights)} to NS, {weighted_text(ew_weights)} to EW"
