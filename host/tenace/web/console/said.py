"""A result's version as the console says it, in the page's language: its result, who entered it, its kind."""

from __future__ import annotations

from tenace.page_base.words import Words, words
from tenace.store.versions import Version
from tenace.web.pages import weighted_text
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import relative_text


def result_said(v: Version, t: Words) -> str:
    """Version.describe in the page's words: "4SX+1 by N, lead HK: NS +990", "artificial NS A+ / EW A-"."""
    if v.damage:
        return t.plain("vs_damaged", damage=v.damage)
    if v.kind == "normal" and v.contract and v.declarer and v.tricks is not None:
        made = relative_text(parse_contract(v.contract), v.tricks)
        lead = t.plain("vs_lead", lead=v.lead) if v.lead else ""
        return t.plain("vs_normal", contract=f"{v.contract}{made}", by=v.declarer, lead=lead,
                       score=f"{v.ns_score:+d}")
    if v.kind == "artificial":
        return t.plain("vs_artificial", ns=v.ns_adjust, ew=v.ew_adjust)
    if v.kind == "weighted" and v.weights:
        if v.ew_weights:
            return t.plain("vs_split", ns=_weighted(v.weights, t), ew=_weighted(v.ew_weights, t))
        return _weighted(v.weights, t)
    return kind_said(v.kind, t)


def _weighted(weights: str, t: Words) -> str:
    # The public pages' words for it (an assigned or a weighted score), as plain text.
    return weighted_text(weights, words(t.lang)).striptags()


def kind_said(kind: str, t: Words) -> str:
    """A version's kind (normal, passed_out, not_played, artificial, weighted, erased) in the page's words."""
    key = f"vs_kind_{kind}"
    return t.plain(key) if key in t.texts else kind.replace("_", " ")


def origin_said(v: Version, t: Words) -> str:
    """Version.origin in the page's words: "terminal 12 seq 40", "director Smith"."""
    if v.source != "terminal":
        return t.plain("vs_director", who=v.who)
    by = t.plain("vs_terminal_rev" if v.revision else "vs_terminal", terminal=v.terminal, seq=v.sequence,
                 rev=v.revision)
    return t.plain("vs_terminal_who", by=by, who=v.who) if v.who != f"terminal {v.terminal}" else by


def movement_said(name: str, kind: str, tables: int, rounds: int, boards: int, t: Words) -> str:
    """A section's movement: its own name in English ("skip Mitchell, 4 tables, 3 rounds of 2 boards"), which is
    made in English; in another language its kind and figures."""
    if t.lang == "en":
        return name
    return t.plain("mv_shape", kind=t.plain(f"mv_{kind}"), tables=tables, rounds=rounds, boards=boards)
