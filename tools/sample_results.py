"""Plausible result messages for a whole movement, as terminals would send them: for tests, benchmarks, simulation."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from tenace.movement import Movement
from tenace.store.model import IncomingResult, Kind

# Contract levels drawn the way club results fall: mostly partscores and games, few slams.
_LEVELS = (1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 6, 7)


def session_results(movement: Movement, *, section: str = "A", seed: int = 1,
                    terminal_of: Callable[[int], int] = lambda table: table) -> list[IncomingResult]:
    """One message for every board of every table and round, each terminal numbering its frames 1, 2, 3...

    `terminal_of(table)` is the id of the terminal on each table (default: the table number).
    """
    rng = random.Random(seed)
    sequences: dict[int, int] = {}
    out = []
    for e in sorted(movement.encounters, key=lambda e: (e.round, e.table)):
        terminal = terminal_of(e.table)
        for board in e.boards:
            sequences[terminal] = sequences.get(terminal, 0) + 1
            base = IncomingResult(terminal=terminal, sequence=sequences[terminal], section=section, table=e.table,
                                  round=e.round, board=board, ns_pair=e.ns_pair, ew_pair=e.ew_pair)
            if rng.random() < 0.03:
                out.append(replace(base, kind=Kind.PASSED_OUT))
                continue
            level = rng.choice(_LEVELS)
            doubling = rng.choice(("",) * 10 + ("X", "X", "XX"))
            contract = f"{level}{rng.choice(('C', 'D', 'H', 'S', 'NT'))}{doubling}"
            tricks = max(0, min(13, level + 6 + round(rng.gauss(0, 1.2))))
            lead = rng.choice("CDHS") + rng.choice("AKQJT98765432")
            out.append(replace(base, contract=contract, declarer=rng.choice("NESW"), tricks=tricks, lead=lead))
    return out
