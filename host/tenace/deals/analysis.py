"""Double-dummy tables and par with endplay (DDS), computed in a worker thread while the caller shows progress."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from tenace.store.hand_records import DECLARERS, STRAINS, DoubleDummy
from tenace_rules.board import dealer, vulnerability

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


def analyse(deal: str, board: int) -> DoubleDummy:
    """The deal's double-dummy table, and par with the board's dealer and vulnerability (Law 2)."""
    # endplay imports matplotlib: seconds, so only where a table is computed.
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal, Denom, Player, Vul

    table = calc_dd_table(Deal(deal))
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


def analyse_in_background(jobs: Iterable[Job], analyse_one: Callable[[str, int], DoubleDummy] = analyse
                          ) -> Iterator[tuple[Job, DoubleDummy]]:
    """Each job with its analysis, in order, computed one ahead in a worker thread (DDS runs outside the GIL,
    so the caller stores results and redraws its progress meanwhile). Leaving the loop early stops the worker
    after the board it is on."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="double-dummy")
    futures: list[tuple[Job, Future[DoubleDummy]]] = [(job, pool.submit(analyse_one, job.deal, job.board))
                                                       for job in jobs]
    try:
        for job, future in futures:
            yield job, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
