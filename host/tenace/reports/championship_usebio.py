"""A championship's sessions as one USEBIO 1.2 file: one EVENT (the championship), SESSION_COUNT its sessions, a
SECTION for each session's section ("1A", "2A") holding that session's pairs and travellers as its own file has them.

USEBIO 1.2, as tenace writes it (usebio/usebio-1.2.rng), has no SESSION element and no PARTICIPANTS for the whole
EVENT beside its SECTIONs (one PLACE a pair in a SECTION): the combined ranking, the carry-over, the strata and the
handicap ranking cannot be said in it; nor the hand records (one HANDSET, by board number: the sessions' deals
differ) or each session's own date (one DATE: the first session's)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

from lxml import etree

from tenace.reports.championship import Championship, ChampionshipError
from tenace.reports.event_results import EventResults, ResultsError, SectionResults, event_results
from tenace.reports.event_usebio import Extras, Written, event_extras, usebio_document
from tenace.store import StoreError, connect
from tenace.store.db import read_transaction
from tenace.store.names import Member


def section_id(session: int, section: str) -> str:
    """A session's section as the file's SECTION_ID: session 2's section A is "2A"."""
    return f"{session}{section}"


def championship_usebio(championship: Championship, club: str, club_id: str | None = None
                        ) -> tuple[etree._ElementTree, Written]:
    """The championship's sessions as one USEBIO 1.2 tree, checked against the schema; ChampionshipError for a
    session that cannot be read, UsebioError for what USEBIO cannot hold."""
    sections: list[SectionResults] = []
    pairs: dict[tuple[str, int, str], tuple[int, int]] = {}
    leads: dict[tuple[str, int, int, int], str] = {}
    members: dict[int, Member] = {}
    dates: list[str] = []
    dealt = False
    for number, spec in enumerate(championship.sessions, start=1):
        results, extras = _read(spec.event, number)
        dates.append(results.info.date)
        members.update(extras.members)  # the latest session's roster names a player last
        for s in results.sections:
            sid = section_id(number, s.section)
            dealt = dealt or bool(s.hands)
            # No hand records: the file's one HANDSET numbers boards alone, and each session deals its own.
            sections.append(replace(s, section=sid, hands={}))
            pairs.update({(sid, n, d): p for (where, n, d), p in extras.pairs.items() if where == s.section})
            leads.update({(sid, b, t, r): c for (where, b, t, r), c in extras.leads.items() if where == s.section})
    tree, written = usebio_document(championship.name, dates[0], sections, Extras(pairs, members, leads), club,
                                    club_id, sessions=len(championship.sessions))
    written.notes.append("the combined ranking, strata and handicaps are not in the file (USEBIO 1.2 has a PLACE "
                         "for a pair in each SECTION, its session's): tenace championship rank's text, --json and "
                         "--html have them")
    if any(s.weight != 1 for s in championship.sessions):
        written.notes.append("the carry-over is not in the file: each session's figures are as played")
    if dealt:
        written.notes.append("the hand records are not in the file (one HANDSET, by board number, and each session "
                             "deals its own): each session's tenace report --usebio has its own")
    return tree, written


def _read(event: Path, number: int) -> tuple[EventResults, Extras]:
    """A session's results and what USEBIO adds to them (players, roster, leads), in one read transaction."""
    if not event.is_file():
        raise ChampionshipError(f"session {number}: {event}: no such event file")
    try:
        with closing(connect(event)) as conn, read_transaction(conn):
            results = event_results(conn)
            return results, event_extras(conn, [s.section for s in results.sections])
    except (StoreError, ResultsError, sqlite3.DatabaseError) as e:
        raise ChampionshipError(f"session {number}: {event}: {e}") from None
