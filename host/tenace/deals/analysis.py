"""Double-dummy tables and par with endplay (DDS), in bulk calls in a worker thread while the caller shows progress."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy
from tenace_rules.board import dealer, vulnerability

if TYPE_CHECKING:
    from endplay.dds.ddtable import DDTable
    from endplay.types import Deal

log = logging.getLogger(__name__)

# endplay's names for our strains and vulnerabilities.
_STRAIN_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "nt"}
_VUL_NAMES = {"none": "none", "ns": "ns", "ew": "ew", "both": "both"}
_DENOM_LETTERS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S", "nt": "NT"}
_PENALTY_MARKS = {"passed": "", "doubled": "X", "redoubled": "XX"}


@dataclass(frozen=True)
class Job:
    """A board to analyse: its deal from North."""

    board: int
    deal: str


# DDS solves at most this many deals in one bulk call with all five strains (MAXNOOFBOARDS 200 / 5).
BATCH = 40


def analyse(deal: str, board: int) -> DoubleDummy:
    """The deal's double-dummy table, and par with the board's dealer and vulnerability (Law 2)."""
    return analyse_batch([(deal, board)])[0]


def analyse_batch(deals: Sequence[tuple[str, int]]) -> list[DoubleDummy]:
    """Each (deal, board)'s analysis: the tables of up to BATCH deals in one bulk DDS call (its threads share the
    work), par from those same tables."""
    # endplay imports matplotlib: seconds, so only where a table is computed.
    from endplay.dds import calc_all_tables

    out: list[DoubleDummy] = []
    for start in range(0, len(deals), BATCH):
        chunk = deals[start:start + BATCH]
        tables = calc_all_tables([_deal(deal) for deal, _ in chunk])
        out.extend(table_analysis(tables[i], board) for i, (_, board) in enumerate(chunk))
    return out


def _deal(deal: str) -> Deal:
    from endplay.types import Deal

    return Deal(deal)


def table_analysis(table: DDTable, board: int) -> DoubleDummy:
    """A table's tricks by declarer and strain, and par for the board's dealer and vulnerability."""
    from endplay.dds import par
    from endplay.types import Denom, Player, Vul

    tricks = {d: {s: int(table[getattr(Denom, _STRAIN_NAMES[s]), Player.find(d)]) for s in STRAINS}
              for d in DECLARERS}
    result = par(table, getattr(Vul, _VUL_NAMES[vulnerability(board)]), Player.find(dealer(board)))
    # ParList rewrites its contracts while it iterates: read each one's fields at once, and iterate once.
    contracts = []
    for c in result:
        strain = _DENOM_LETTERS[c.denom.name]
        done = "=" if c.result == 0 else f"{c.result:+d}"
        contracts.append(f"{c.level}{strain}{_PENALTY_MARKS[c.penalty.name]} {c.declarer.abbr} {done}")
    return DoubleDummy(tricks, int(result.score), tuple(contracts))


def analyse_in_background(jobs: Iterable[Job],
                          analyse_many: Callable[[Sequence[tuple[str, int]]], list[DoubleDummy]] = analyse_batch
                          ) -> Iterator[tuple[Job, DoubleDummy]]:
    """Each job with its analysis, in order, computed by batches of BATCH in a worker thread (DDS runs outside
    the GIL, so the caller stores each batch's results while the next is computed). Leaving the loop early stops
    the worker after the batch it is on."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="double-dummy")
    todo = list(jobs)
    batches = [todo[i:i + BATCH] for i in range(0, len(todo), BATCH)]
    futures = [(batch, pool.submit(analyse_many, [(job.deal, job.board) for job in batch])) for batch in batches]
    try:
        for batch, future in futures:
            yield from zip(batch, future.result(), strict=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
