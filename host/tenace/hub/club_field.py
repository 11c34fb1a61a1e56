"""A club's own ranking and a pair's boards in the sim's scoring: matchpoints (hub.field) or IMPs (hub.field_imps)."""

from __future__ import annotations

from typing import Any

import psycopg

from tenace.hub import field, field_imps


def club_ranking(conn: psycopg.Connection[Any], sim: str, club: str) -> list[dict[str, Any]]:
    """The club's own ranking: its results alone, each section a field, as the club scores them (made when asked:
    a club's field is small); an IMP sim's club ranks in IMPs."""
    scoring = field_imps.sim_scoring(conn, sim)
    if scoring == "mp":
        return field.mp_club_ranking(conn, sim, club)
    results, penalties = field.load(conn, sim, club)
    if not results.get(club):
        return []
    return field_imps.club_imps_ranking(results[club], penalties.get(club, ()), scoring)


def pair_cards(conn: psycopg.Connection[Any], sim: str, pair: str) -> list[list[Any]] | None:
    """A pair's boards against its club's field and the nation's (field.mp_pair_cards; an IMP sim's in IMPs,
    field_imps.imp_pair_cards); None when the pair has no scored board."""
    scoring = field_imps.sim_scoring(conn, sim)
    if scoring == "mp":
        return field.mp_pair_cards(conn, sim, pair)
    return field_imps.imp_pair_cards(conn, sim, pair, scoring)
