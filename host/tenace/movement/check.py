"""Proving a movement: the rules it must keep (errors) and what it gives the pairs (observations)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from tenace.movement.model import MAX_BOARDS, Encounter, Movement, Pair, pair_label, pair_order, team_of

# The rules a movement must keep; a report's errors name one of these.
RULES = {
    "layout": "every table is played once in every round, on boards_per_round boards, by two different pairs",
    "pair-once-a-round": "no pair sits at two tables in the same round",
    "board-twice": "no pair plays a board twice",
    "board-clash": "a board is at one table in a round, unless it has copies or the tables sharing it are a relay",
    "relay-size": "tables sharing a set in a round have at least one of its boards each",
    "split-set": "the boards of a set travel together: played at the same tables in the same rounds",
    "numbering": "boards are numbered 1 up to the highest with none missing",
    "partnership": "an individual's partnerships are two different players each, and every one seated is named",
    "player-once-a-round": "no player sits in two seats in the same round",
    "player-board-twice": "no player plays a board twice",
}

Couple = tuple[Pair, Pair]  # two pairs, the lower first


@dataclass(frozen=True)
class Problem:
    """A broken rule: which (a key of RULES) and where."""

    rule: str
    message: str


@dataclass(frozen=True)
class PairSummary:
    """What one pair gets from the movement."""

    pair: Pair
    label: str
    boards: int  # boards played (a round sat out plays none)
    sit_outs: int  # rounds sat out: against the phantom, or at no table (a bye)
    opponents: int  # different pairs met
    compare_low: int  # the fewest boards it compares on with another pair it competes with
    compare_high: int  # the most


@dataclass(frozen=True)
class Balance:
    """How evenly the pairs that compete with each other compare: `couples` couples, `lowest` to `highest` boards
    each; `ideal` is the spread an even split would have (0 when the comparisons divide evenly, else 1)."""

    couples: int
    lowest: int
    highest: int
    ideal: int

    @property
    def off_by(self) -> int:
        return max(0, self.highest - self.lowest - self.ideal)

    @property
    def balanced(self) -> bool:
        return self.off_by == 0


@dataclass(frozen=True)
class Report:
    """The check of one movement. `errors` are broken rules (the movement cannot be played as written);
    `observations` describe it (meetings, comparisons, relays, sit-outs) and are never failures."""

    movement: Movement
    errors: tuple[Problem, ...]
    observations: tuple[str, ...]
    pairs: tuple[PairSummary, ...]
    meetings: dict[Couple, int]  # every couple that may meet, with how often it does (0 included)
    comparisons: dict[Couple, int]  # every couple that competes, with the boards it compares on
    balance: Balance | None  # None for a team match (each pair compares with its counterpart only)

    @property
    def ok(self) -> bool:
        return not self.errors


def check(movement: Movement) -> Report:
    """Check every rule of RULES and describe the movement."""
    if movement.kind == "individual":
        return _check_individual(movement)
    errors = [*_layout(movement), *_pair_once_a_round(movement), *_boards_twice(movement), *_clashes(movement),
              *_split_sets(movement), *_numbering(movement)]
    players = [p for p in movement.pairs() if p != movement.phantom]
    played = [e for e in movement.encounters if not movement.sits_out(e)]
    meetings = dict.fromkeys(_possible_meetings(movement, players), 0)
    for e in played:
        ns, ew = movement.seated(e)
        meetings[_couple(ns, ew)] = meetings.get(_couple(ns, ew), 0) + 1
    groups = _competing(movement, players)
    comparisons = _compared(movement, played, [_couple(a, b) for g in groups for a, b in combinations(g, 2)])
    balance = _balance(comparisons) if movement.kind != "teams" and comparisons else None
    summaries = _summaries(movement, players, played, meetings, comparisons)
    observations = _observations(movement, summaries, meetings, comparisons, balance, groups)
    return Report(movement, tuple(errors), tuple(observations), tuple(summaries), meetings, comparisons, balance)


def _check_individual(m: Movement) -> Report:
    """An individual checked player by player: its partnerships are only how the players are seated. Meetings are
    as opponents; how often two players partner is an observation of its own."""
    errors = [*_layout(m), *_clashes(m), *_split_sets(m), *_numbering(m)]
    seats: list[tuple[Encounter, tuple[int, ...], tuple[int, ...]]] = []
    for e in m.encounters:
        named = [m.partners[p - 1] if 1 <= p <= len(m.partners) else None for p in (e.ns_pair, e.ew_pair)]
        if named[0] is None or named[1] is None or len({*named[0], *named[1]}) < 4:
            errors.append(Problem("partnership", f"{_where(e)}: partnerships {e.ns_pair} and {e.ew_pair} are not "
                                  "four different named players"))
            continue
        seats.append((e, named[0], named[1]))
    at: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
    boards: defaultdict[tuple[int, int], int] = defaultdict(int)
    for e, ns, ew in seats:
        for player in ns + ew:
            at[player, e.round].append(e.table)
            for b in e.boards:
                boards[player, b] += 1
    errors += [Problem("player-once-a-round", f"player {p} is seated {_count(len(t), 'time')} in round {r} "
                       f"(table{'s' if len(set(t)) > 1 else ''} {_and(sorted(set(t)))})")
               for (p, r), t in sorted(at.items()) if len(t) > 1]
    errors += [Problem("player-board-twice", f"player {p} plays board {b} {_count(n, 'time')}")
               for (p, b), n in sorted(boards.items()) if n > 1]
    everyone: list[Pair] = [("", p) for p in sorted({p for _, ns, ew in seats for p in ns + ew})]
    couples = [_couple(a, b) for a, b in combinations(everyone, 2)]
    meetings = dict.fromkeys(couples, 0)
    partnered = dict.fromkeys(couples, 0)
    for _, ns, ew in seats:
        partnered[_couple(("", ns[0]), ("", ns[1]))] += 1
        partnered[_couple(("", ew[0]), ("", ew[1]))] += 1
        for a in ns:
            for b in ew:
                meetings[_couple(("", a), ("", b))] += 1
    # The players' seats as encounters of a Howell (North's player named NS, East's EW, twice: once per
    # partner), so that comparisons count as a pairs movement's: same board, same direction, two tables.
    as_pairs = [Encounter(e.table, e.round, ns[i], ew[i], e.boards) for e, ns, ew in seats for i in (0, 1)]
    comparisons = _compared(replace(m, kind="howell", partners=(), encounters=tuple(as_pairs)), as_pairs, couples)
    balance = _balance(comparisons) if comparisons else None
    summaries = [PairSummary(p, f"player {p[1]}", sum(n for (q, _), n in boards.items() if q == p[1]), 0,
                             sum(1 for c, n in meetings.items() if n and p in c),
                             min((n for c, n in comparisons.items() if p in c), default=0),
                             max((n for c, n in comparisons.items() if p in c), default=0)) for p in everyone]
    notes = [f"{len(everyone)} players in {m.tables} tables; partnerships are the movement's pairs",
             _spread("partners", partnered, "partners", "partner"),
             _spread("opponents", meetings, "meets", "meet"),
             _spread("comparisons", comparisons, "compares on", "compare on", unit="board")]
    if m.copies > 1:
        notes.append(f"{m.copies} copies of every board (duplicated boards)")
    if balance is not None:
        notes.append("balanced: every two players compare as evenly as the boards allow" if balance.balanced else
                     f"not balanced: players compare on {balance.lowest} to {balance.highest} boards")
    return Report(m, tuple(errors), tuple(notes), tuple(summaries), meetings, comparisons, balance)


def nothing_to_compare(movement: Movement) -> str | None:
    """Why a pairs event could not be scored on this movement (boards played at one table only), else None.

    A pairs board is scored by comparing its results; a board played once has nothing to compare with, and
    every pair would score an average on it (a two-table Mitchell: all pairs at 50 %)."""
    if movement.kind == "teams":
        return None  # a team match compares the two rooms of each board
    tables = Counter(b for e in movement.encounters if not movement.sits_out(e) for b in e.boards)
    once = sorted(b for b, n in tables.items() if n < 2)
    if not once:
        return None
    which = f"board {once[0]} is" if len(once) == 1 else f"boards {span(once)} are each"
    return (f"{which} played at one table only in {movement.name}: there is nothing to compare "
            f"{'it' if len(once) == 1 else 'them'} with, and every pair would score an average (play more tables, "
            f"copies of the boards at every table, or a team match)")


def _where(e: Encounter) -> str:
    return f"table {e.table} in round {e.round}"


def _layout(m: Movement) -> list[Problem]:
    problems = []
    seen: Counter[tuple[int, int]] = Counter()
    for e in m.encounters:
        if not (1 <= e.table <= m.tables and 1 <= e.round <= m.rounds):
            problems.append(Problem("layout", f"table {e.table} in round {e.round} is outside the movement's "
                                    f"{m.tables} tables and {m.rounds} rounds"))
            continue
        seen[e.table, e.round] += 1
        if len(e.boards) != m.boards_per_round:
            problems.append(Problem("layout", f"{_where(e)} has {len(e.boards)} board"
                                    f"{'s' if len(e.boards) != 1 else ''}, not {m.boards_per_round}"))
        if any(not 1 <= b <= MAX_BOARDS for b in e.boards):
            problems.append(Problem("layout", f"{_where(e)} has a board numbered outside 1 to {MAX_BOARDS}"))
        if e.ns_pair < 1 or e.ew_pair < 1:
            problems.append(Problem("layout", f"{_where(e)}: pairs are numbered from 1"))
        ns, ew = m.seated(e)
        if ns == ew:
            problems.append(Problem("layout", f"{_where(e)}: pair {pair_label(ns, m.kind)} is on both sides"))
    for r in range(1, m.rounds + 1):
        for t in range(1, m.tables + 1):
            if seen[t, r] == 0:
                problems.append(Problem("layout", f"table {t} has nobody in round {r}"))
            elif seen[t, r] > 1:
                problems.append(Problem("layout", f"table {t} is in round {r} {seen[t, r]} times"))
    return problems


def _pair_once_a_round(m: Movement) -> list[Problem]:
    tables: defaultdict[tuple[Pair, int], list[int]] = defaultdict(list)
    for e in m.encounters:
        for p in set(m.seated(e)):
            tables[p, e.round].append(e.table)
    return [Problem("pair-once-a-round", f"{pair_label(p, m.kind)} is at tables {_and(at)} in round {r}")
            for (p, r), at in sorted(tables.items(), key=lambda item: (item[0][1], pair_order(item[0][0])))
            if len(at) > 1 and p != m.phantom]


def _boards_twice(m: Movement) -> list[Problem]:
    where: defaultdict[tuple[Pair, int], list[Encounter]] = defaultdict(list)
    for e in m.encounters:
        if m.sits_out(e):
            continue
        for p in set(m.seated(e)):
            for b in e.boards:
                where[p, b].append(e)
    # The boards a pair plays twice at the same places, together: a set played twice is one line, not one a board.
    grouped: defaultdict[tuple[Pair, tuple[Encounter, ...]], list[int]] = defaultdict(list)
    for (p, b), at in where.items():
        if len(at) > 1:
            grouped[p, tuple(at)].append(b)
    problems = []
    for (p, twice), boards in sorted(grouped.items(), key=lambda item: (pair_order(item[0][0]), min(item[1]))):
        places = "; ".join(_where(e) for e in twice)
        problems.append(Problem("board-twice", f"{pair_label(p, m.kind)} plays board{'s' if len(boards) > 1 else ''} "
                                f"{span(boards)} {_count(len(twice), 'time')} ({places})"))
    return problems


def _clashes(m: Movement) -> list[Problem]:
    problems = []
    plans = _by_round(m)
    relay_of = {t: tuple(sorted(g)) for g in m.relays for t in g}
    for r in range(1, m.rounds + 1):
        at: defaultdict[int, list[int]] = defaultdict(list)
        for e in plans[r]:
            for b in set(e.boards):
                at[b].append(e.table)
        shared: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)  # the tables -> the boards there
        for b, where in at.items():
            if len(where) > 1:
                shared[tuple(sorted(where))].append(b)
        for tables, boards in sorted(shared.items()):
            if len(tables) <= m.copies:
                continue
            what = f"board{'s' if len(boards) > 1 else ''} {span(boards)}"
            # Each copy of a board is at one table or goes round one relay: the tables holding it, grouped by
            # relay (a table in none is a group of its own), need a copy a group.
            groups = {relay_of.get(t, (t,)) for t in tables}
            if len(groups) > m.copies:
                copies = "one copy" if m.copies == 1 else f"{m.copies} copies"
                problems.append(Problem("board-clash", f"{what} {'are' if len(boards) > 1 else 'is'} at tables "
                                        f"{_and(tables)} in round {r} ({copies}, and those tables are no relay)"))
                continue
            for group in sorted(groups):
                sharing = [t for t in tables if t in group]
                if len(sharing) > 1 and len(boards) < len(sharing):
                    problems.append(Problem("relay-size", f"tables {_and(sharing)} share {what} in round {r}: "
                                            "fewer boards than tables, so a table waits with none"))
    return problems


def _by_round(m: Movement) -> defaultdict[int, list[Encounter]]:
    plans: defaultdict[int, list[Encounter]] = defaultdict(list)
    for e in m.encounters:
        plans[e.round].append(e)
    return plans


def _split_sets(m: Movement) -> list[Problem]:
    played_at: defaultdict[int, set[tuple[int, int]]] = defaultdict(set)
    for e in m.encounters:
        for b in e.boards:
            played_at[b].add((e.round, e.table))
    problems = []
    seen: set[tuple[int, ...]] = set()
    for e in m.encounters:
        # The boards of one encounter, grouped by where else they are played: one group when the set travels whole.
        groups: defaultdict[frozenset[tuple[int, int]], list[int]] = defaultdict(list)
        for b in sorted(set(e.boards)):
            groups[frozenset(played_at[b])].append(b)
        if len(groups) < 2:
            continue
        key = tuple(sorted(set(e.boards)))
        if key in seen:
            continue
        seen.add(key)
        (main_at, main), *others = sorted(groups.items(), key=lambda g: (-len(g[1]), g[1]))
        for odd_at, odd in others:
            apart = sorted(main_at ^ odd_at)
            r, t = apart[0]
            alone = main if (r, t) in main_at else odd
            rest = odd if alone is main else main
            problems.append(Problem("split-set", f"boards {span(main + odd)} are played together at "
                                    f"{_where(e)}, but at table {t} in round {r} board{'s' if len(alone) > 1 else ''}"
                                    f" {span(alone)} without {span(rest)}"))
    return problems


def _numbering(m: Movement) -> list[Problem]:
    boards = {b for e in m.encounters for b in e.boards if 1 <= b <= MAX_BOARDS}
    missing = sorted(set(range(1, max(boards, default=0) + 1)) - boards)
    if not missing:
        return []
    return [Problem("numbering", f"board{'s' if len(missing) > 1 else ''} {span(missing)} "
                    f"{'are' if len(missing) > 1 else 'is'} never played, yet higher numbers are")]


def _couple(a: Pair, b: Pair) -> Couple:
    return (a, b) if pair_order(a) < pair_order(b) else (b, a)


def _possible_meetings(m: Movement, players: list[Pair]) -> list[Couple]:
    """The couples that could meet: across the fields in a Mitchell, across the teams in a match, any two pairs
    in a Howell."""
    if m.kind == "teams":  # the pairs of two teams that play a match (team t's pairs are 2t - 1 and 2t)
        matches = _matches(m)
        return [_couple(a, b) for a, b in combinations(players, 2)
                if tuple(sorted((team_of(a[1]), team_of(b[1])))) in matches]
    if m.two_fields:  # an arrow switch turns a pair round, it does not bring NS 1 to NS 2's table
        return [_couple(a, b) for a in players if a[0] == "NS" for b in players if b[0] == "EW"]
    return list(combinations(players, 2))


def _competing(m: Movement, players: list[Pair]) -> list[list[Pair]]:
    """The groups of pairs ranked together: a Mitchell's two fields apart unless arrow switches mix them; in a
    team match each pair with its counterpart, who plays the same boards the same way at the other table."""
    if m.kind == "teams":  # each match: its two NS-at-home pairs (odd numbers), its two EW pairs (even)
        return [[p for p in players if team_of(p[1]) in match and p[1] % 2 == odd]
                for match in sorted(_matches(m)) for odd in (1, 0)]
    if m.two_fields and not any(e.switched for e in m.encounters):
        return [[p for p in players if p[0] == field] for field in ("NS", "EW")]
    return [players]


def _matches(m: Movement) -> set[tuple[int, int]]:
    """The couples of teams that meet at some table, the lower team number first."""
    found = set()
    for e in m.encounters:
        ns, ew = (team_of(p[1]) for p in m.seated(e))
        if ns != ew:
            found.add((min(ns, ew), max(ns, ew)))
    return found


def _compared(m: Movement, played: list[Encounter], couples: list[Couple]) -> dict[Couple, int]:
    """How many boards each couple compares on: both played the board, in the same direction, at two tables.

    Each pair's boards played North-South and East-West as bit masks (bit b: board b), so that a couple's
    count is two popcounts, however many tables there are."""
    masks: defaultdict[Pair, list[int]] = defaultdict(lambda: [0, 0])
    for e in played:
        bits = 0
        for b in e.boards:
            bits |= 1 << b
        for direction, p in enumerate(m.seated(e)):
            masks[p][direction] |= bits
    return {(a, b): (masks[a][0] & masks[b][0]).bit_count() + (masks[a][1] & masks[b][1]).bit_count()
            for a, b in couples}


def _balance(comparisons: dict[Couple, int]) -> Balance:
    counts = list(comparisons.values())
    return Balance(len(counts), min(counts), max(counts), 0 if sum(counts) % len(counts) == 0 else 1)


def _summaries(m: Movement, players: list[Pair], played: list[Encounter], meetings: dict[Couple, int],
               comparisons: dict[Couple, int]) -> list[PairSummary]:
    boards: Counter[Pair] = Counter()
    sit_outs: Counter[Pair] = Counter()
    for e in m.encounters:
        for p in m.seated(e):
            if m.sits_out(e):
                sit_outs[p] += 1
            else:
                boards[p] += len(e.boards)
    for out in m.at_no_table().values():
        for p in out:
            sit_outs[p] += 1
    met: defaultdict[Pair, set[Pair]] = defaultdict(set)
    for (a, b), n in meetings.items():
        if n:
            met[a].add(b)
            met[b].add(a)
    compared: defaultdict[Pair, list[int]] = defaultdict(list)
    for (a, b), n in comparisons.items():
        compared[a].append(n)
        compared[b].append(n)
    return [PairSummary(p, pair_label(p, m.kind), boards[p], sit_outs[p], len(met[p]),
                        min(compared[p], default=0), max(compared[p], default=0)) for p in players]


def _observations(m: Movement, summaries: list[PairSummary], meetings: dict[Couple, int],
                  comparisons: dict[Couple, int], balance: Balance | None, groups: list[list[Pair]]) -> list[str]:
    notes = []
    lows = min((s.boards for s in summaries), default=0)
    highs = max((s.boards for s in summaries), default=0)
    total = m.boards
    if lows == highs:
        notes.append(f"every pair plays {lows} of the {total} boards")
    else:
        notes.append(f"pairs play {lows} to {highs} of the {total} boards")
    if m.phantom is not None:
        out = [s for s in summaries if s.sit_outs]
        tally = Counter(s.sit_outs for s in out)
        notes.append(f"{pair_label(m.phantom, m.kind)} is missing (a half table): "
                     + ", ".join(f"{k} pair{'s' if k > 1 else ''} sit{'' if k > 1 else 's'} out {_count(n, 'time')}"
                                 for n, k in sorted(tally.items())))
    byes = Counter(p for out in m.at_no_table().values() for p in out)
    if byes:
        tally = Counter(byes.values())
        notes.append("at no table in some rounds (a bye): " + ", ".join(
            f"{k} pair{'s' if k > 1 else ''} sit{'' if k > 1 else 's'} out {_count(n, 'time')}"
            for n, k in sorted(tally.items())))
    for group in m.relays:
        notes.append(f"tables {_and(group)} may share a set in a round (a relay: they play its boards in turn)")
    if m.copies > 1:
        notes.append(f"{m.copies} copies of every board (duplicated boards)")
    sets = {frozenset(e.boards) for e in m.encounters}  # a set's boards travel together (else: split-set)
    plans = _by_round(m)
    resting = sorted({len(sets) - len({frozenset(e.boards) for e in plans[r]}) for r in range(1, m.rounds + 1)})
    if m.copies == 1 and m.kind != "teams" and resting[-1:] != [0]:
        shown = " or ".join(map(str, resting))
        notes.append(f"{shown} of the {len(sets)} sets rest{'s' if resting == [1] else ''} off the tables each "
                     "round (on a bye or relay stand)")
    switched = sorted({e.round for e in m.encounters if e.switched})
    if switched:
        notes.append(f"arrow switch in round{'s' if len(switched) > 1 else ''} {_and(switched)}: the NS and EW "
                     "pairs compare with each other, one ranking")
    notes.append(_spread("meetings", meetings, "meets", "meet"))
    if comparisons:
        who = " within each field" if m.two_fields and len(groups) > 1 else ""
        who = " with the counterpart at the other table" if m.kind == "teams" else who
        notes.append(_spread(f"comparisons{who}", comparisons, "compares on", "compare on", unit="board"))
    if balance is not None:
        if balance.balanced:
            even = "evenly" if balance.ideal == 0 else "as evenly as the boards allow (they differ by at most 1)"
            notes.append(f"balanced: every couple that competes compares {even}")
        else:
            notes.append(f"not balanced: couples compare on {balance.lowest} to {balance.highest} boards, "
                         f"{balance.off_by} more apart than an even split ({balance.ideal})")
    elif m.kind == "teams":
        notes.append("a team match: each pair compares with its counterpart at the other table; no ranking of pairs")
    return notes


def _spread(what: str, counts: dict[Couple, int], verb: str, verb_plural: str, unit: str = "time") -> str:
    """One line on how often the couples do something: all alike, or how many do it how often."""
    if not counts:
        return f"{what}: none"
    tally = Counter(counts.values())
    if len(tally) == 1:
        (n, couples), = tally.items()
        return f"{what}: each of the {couples} couples {verb} {_count(n, unit)}"
    parts = ", ".join(f"{couples} {verb_plural if couples > 1 else verb} {_count(n, unit)}"
                      for n, couples in sorted(tally.items(), reverse=True))
    return f"{what}: of {len(counts)} couples, {parts}"


def _count(n: int, unit: str) -> str:
    if unit == "time":
        return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")
    return f"{n} {unit}{'s' if n != 1 else ''}"


def _and(items: list[int] | tuple[int, ...]) -> str:
    shown = [str(i) for i in items]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def span(boards: Iterable[int]) -> str:
    """Board numbers as runs, in order, each once: 1-3, 7, 9-10."""
    runs: list[list[int]] = []
    for b in sorted(set(boards)):
        if runs and b == runs[-1][-1] + 1:
            runs[-1].append(b)
        else:
            runs.append([b])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
