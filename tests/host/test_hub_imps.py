"""An IMP sim's field (hub.field_imps): the national ranking summed from each board's figures equals the engines'
scoring from scratch and a cross-IMP / Butler scoring written here from the WBF IMP scale and the definitions (not by
the hub's code); a board's figures depend on its own outcome counts alone; the organiser may define an IMP sim."""

from __future__ import annotations

import logging
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import psycopg
import pytest

from tenace.errors import UsageError
from tenace.hub import club_field, field, field_imps, organiser
from tenace.hub.ingest import club_of, take
from tenace.protocol import wire
from tenace.scoring import codec
from tenace.scoring.model import BoardResult, Penalty, PenaltyUnit

from hub_sim import slot, write_hand_records

# The WBF IMP scale, as printed: the highest point difference worth 0, 1, 2, ... 23 IMPs; more is 24.
WBF_UPPER = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290, 1490, 1740, 1990, 2240,
             2490, 2990, 3490, 3990)
SCORES = (-1100, -500, -200, -100, -50, 90, 110, 120, 140, 170, 400, 420, 430, 450, 460, 600, 620, 650, 1430)
AVERAGES = {"A+": 3, "A": 0, "A-": -3, "60%": 3, "50%": 0, "40%": -3}  # Law 12C2 at IMPs


def wbf_imps(difference: Fraction) -> int:
    size = abs(difference)
    got = next((i for i, upper in enumerate(WBF_UPPER) if size <= upper), 24)
    return got if difference >= 0 else -got


@dataclass(frozen=True)
class Table:
    club: str
    section: str
    table: int
    board: int
    ns: str
    ew: str
    text: str  # the slot's outcome column: P420, AA+|A-, W1/3:420 2/3:-50|, N


def _outcome_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.06:
        ns, ew = rng.choice((("A+", "A-"), ("A", "A"), ("A-", "A+"), ("60%", "40%"), ("A+", "A+")))
        return f"A{ns}|{ew}"
    if roll < 0.075:
        return "A55%|45%"  # no IMP equivalent: counts for neither pair
    if roll < 0.11:
        return f"W1/3:{rng.choice(SCORES)} 2/3:{rng.choice(SCORES)}|"
    if roll < 0.13:
        return f"W1:{rng.choice(SCORES)}|1:{rng.choice(SCORES)}"  # Law 12C1(b): each side its own assigned score
    if roll < 0.17:
        return "N"
    return f"P{rng.choice(SCORES)}"


def _field(seed: int, clubs: int = 14, boards: int = 7) -> list[Table]:
    """Mitchell sections at many clubs, 2 to 6 tables each, some clubs with two sections; a few hundred results."""
    rng = random.Random(seed)
    tables = []
    for c in range(clubs):
        club = f"c{c:04d}"
        for section in ("A", "B")[:1 + (c % 3 == 0)]:
            n = rng.randint(2, 6)
            for board in range(1, boards + 1):
                if board == boards and c % 4 == 1:
                    continue  # the last board not in play at some clubs: counts differ
                for t in range(1, n + 1):
                    ew = (t + board) % n + 1  # the EW pairs move
                    tables.append(Table(club, section, t, board, f"{club}/{section}{t}NS", f"{club}/{section}{ew}EW",
                                        _outcome_text(rng)))
    # a board where nothing was played but assigned and artificial scores: nothing to compare them with
    tables.append(Table("c0001", "A", 1, boards + 1, "c0001/A1NS", "c0001/A1EW", "W1/2:420 1/2:-50|"))
    tables.append(Table("c0001", "A", 2, boards + 1, "c0001/A2NS", "c0001/A2EW", "AA+|A-"))
    return tables


def _penalties(tables: list[Table], rng: random.Random) -> dict[str, list[Penalty]]:
    pairs = sorted({t.ns for t in tables})
    got: dict[str, list[Penalty]] = defaultdict(list)
    for pair in rng.sample(pairs, 4):
        got[pair.partition("/")[0]].append(Penalty(pair, Fraction(3, 2), PenaltyUnit.MATCHPOINTS))
    pair = pairs[1]
    got[pair.partition("/")[0]].append(Penalty(pair, Fraction(25), PenaltyUnit.PERCENT_OF_TOP))  # ignored at IMPs
    return got


def _results(tables: list[Table]) -> dict[str, list[BoardResult]]:
    results: dict[str, list[BoardResult]] = defaultdict(list)
    for t in tables:
        results[t.club].append(BoardResult(f"{t.club}/{t.section}", t.table, 1, t.board, t.ns, t.ew,
                                           codec.from_key(t.text)))
    return results


def _from_figures(tables: list[Table], scoring: str) -> dict[str, tuple[Fraction, int, set[str]]]:
    """What the hub does: each board's figures from its outcome counts, each pair's sum of its sides' figures."""
    counts: dict[int, Counter[str]] = defaultdict(Counter)
    for t in tables:
        counts[t.board][t.text] += 1
    figures = {}
    for board, c in counts.items():
        entries, sides = field_imps.imp_board_figures(board, dict(c), scoring)
        assert entries == sum(c.values())
        figures.update({(board, direction, text): Fraction(num, den) for direction, text, _, num, den, _ in sides})
    sums: dict[str, tuple[Fraction, int, set[str]]] = {}
    for t in tables:
        for pair, direction in ((t.ns, "NS"), (t.ew, "EW")):
            value = figures.get((t.board, direction, t.text))
            if value is not None:
                total, boards, directions = sums.get(pair, (Fraction(0), 0, set()))
                sums[pair] = (total + value, boards + 1, directions | {direction})
    return sums


def _weights(text: str) -> list[tuple[Fraction, int]]:
    return [(Fraction(w), int(s)) for w, _, s in (p.partition(":") for p in text.split())]


def _here(tables: list[Table], scoring: str) -> dict[str, Fraction]:
    """Each pair's IMPs from the definitions: Butler against the datum (the mean of the board's played NS scores less
    the highest and the lowest, to the nearest 10, halves away from 0), cross-IMPs against each other played result,
    averaged per comparison; A+/A/A- +3/0/-3 (60/50/40%), other percentages no score; a weighted score the weighted
    sum of its components' IMPs, taking no part in the others' comparisons; not played: nothing."""
    got: dict[str, Fraction] = defaultdict(Fraction)
    for board in sorted({t.board for t in tables}):
        on = [t for t in tables if t.board == board]
        played = sorted(int(t.text[1:]) for t in on if t.text.startswith("P"))
        datum = None
        if played:
            k = 1 if len(played) >= 3 else 0
            kept = played[k:len(played) - k]
            mean = Fraction(sum(kept), len(kept))
            tens = int(abs(mean) / 10 + Fraction(1, 2))  # to the nearest 10, a half away from 0
            datum = Fraction(10 * tens if mean >= 0 else -10 * tens)

        def against(score: int, others: list[int], board_datum: Fraction | None = datum) -> Fraction:
            if scoring == "butler":
                assert board_datum is not None
                return Fraction(wbf_imps(score - board_datum))
            return Fraction(sum(wbf_imps(Fraction(score - o)) for o in others), len(others)) if others else Fraction(0)

        for t in on:
            kind, body = t.text[0], t.text[1:]
            if kind == "P":
                score = int(body)
                others = list(played)
                others.remove(score)
                ns = against(score, others)
                got[t.ns] += ns
                got[t.ew] -= ns
            elif kind == "A":
                ns_text, _, ew_text = body.partition("|")
                if ns_text in AVERAGES and ew_text in AVERAGES:
                    got[t.ns] += AVERAGES[ns_text]
                    got[t.ew] += AVERAGES[ew_text]
            elif kind == "W" and played:
                ns_text, _, ew_text = body.partition("|")
                got[t.ns] += sum(w * against(s, played) for w, s in _weights(ns_text))
                got[t.ew] -= sum(w * against(s, played) for w, s in _weights(ew_text or ns_text))
    return got


def _scores(t: Table) -> bool:
    """Whether the result scores at IMPs: not when not played, at 55%, or assigned on a board played nowhere."""
    return not t.text.startswith(("N", "A55")) and not (t.board == 8 and t.text.startswith("W"))


def _ranks(values: dict[str, Fraction]) -> dict[str, str]:
    ranks = {}
    for p, v in values.items():
        better = sum(1 for w in values.values() if w > v)
        tied = sum(1 for w in values.values() if w == v) > 1
        ranks[p] = f"{better + 1}{'=' if tied else ''}"
    return ranks


@pytest.mark.parametrize("scoring", ["cross-imps", "butler"])
@pytest.mark.parametrize("seed", [3, 4])
def test_the_ranking_from_board_figures_is_the_fields_imps_computed_here(scoring: str, seed: int,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    tables = _field(seed)
    assert 300 <= len(tables) <= 700
    penalties = _penalties(tables, random.Random(seed))
    caplog.set_level(logging.WARNING)
    summed = field_imps.imp_ranking(_from_figures(tables, scoring), [p for ps in penalties.values() for p in ps])
    full = field_imps.full_national_imps(_results(tables), penalties, scoring)
    assert summed == full
    assert any("has no meaning at IMPs" in r.message for r in caplog.records)  # the %top penalty, ignored

    mine = _here(tables, scoring)
    for ps in penalties.values():
        for p in ps:
            if p.unit is PenaltyUnit.MATCHPOINTS:
                mine[p.pair] -= p.amount  # a club's Law 90 penalty in an IMP sim is in IMPs
    boards = Counter(p for t in tables if _scores(t) for p in (t.ns, t.ew))
    assert {r["pair"]: r["boards"] for r in full} == boards
    for r in full:
        assert r["mp"] is None and r["percent"] is None and r["top"] is None
        exact = mine[r["pair"]]
        assert Fraction(r["imps"]) == Fraction(round(exact * 100), 100), (r, exact)
    for direction in ("NS", "EW"):
        values = {r["pair"]: mine[r["pair"]] for r in full if r["field"] == direction}
        assert len(values) > 20
        assert {r["pair"]: r["rank"] for r in full if r["field"] == direction} == _ranks(values)


@pytest.mark.parametrize("scoring", ["cross-imps", "butler"])
def test_a_boards_figures_depend_on_its_outcome_counts_alone(scoring: str) -> None:
    counts = {"P420": 5, "P450": 3, "P-50": 2, "P170": 1, "AA+|A-": 1, "W1/3:420 2/3:-50|": 1, "N": 2}
    entries, figures = field_imps.imp_board_figures(3, counts, scoring)
    assert entries == 15
    assert {f[1] for f in figures} == set(counts) - {"N"}  # not played: no figure
    assert ("NS", "AA+|A-", True, 3, 1, "A+") in figures and ("EW", "AA+|A-", True, -3, 1, "A-") in figures
    for order in (sorted(counts.items(), reverse=True), list(counts.items())[3:] + list(counts.items())[:3]):
        assert field_imps.imp_board_figures(11, dict(order), scoring) == (entries, figures)

    # Spread over clubs and tables any way, with other boards' results growing the field (a matchpoint field's E):
    # the pairs' IMPs on the board are the same.
    rng = random.Random(5)
    texts = [t for t, c in counts.items() for _ in range(c)]
    values = []
    for clubs in (1, 3, 15):
        rng.shuffle(texts)
        tables = [Table(f"c{i % clubs}", "A", i + 1, 3, f"c{i % clubs}/A{i + 1}NS", f"c{i % clubs}/A{i + 1}EW", text)
                  for i, text in enumerate(texts)]
        tables += [Table("big", "A", t, 4, f"big/A{t}NS", f"big/A{t}EW", f"P{rng.choice(SCORES)}")
                   for t in range(1, 8 * clubs)]
        rows = field_imps.full_national_imps(_results(tables), {}, scoring)
        on_three = {t.text: r["imps"] for r in rows for t in tables if t.board == 3 and r["pair"] == t.ns}
        values.append(on_three)
    assert values[0] == values[1] == values[2]
    assert len(values[0]) == len(counts) - 1


def test_an_unknown_scoring_and_percent_penalties_at_imps() -> None:
    with pytest.raises(ValueError, match="cross-imps or butler"):
        field_imps.imp_board_figures(1, {"P420": 1}, "mp")
    rows = field_imps.imp_ranking({"c/A1NS": (Fraction(7, 3), 2, {"NS"}), "c/A2NS": (Fraction(2), 2, {"NS"})},
                                  [Penalty("c/A1NS", Fraction(1), PenaltyUnit.MATCHPOINTS),
                                   Penalty("c/A2NS", Fraction(50), PenaltyUnit.PERCENT_OF_TOP)])
    assert [(r["pair"], r["rank"], r["imps"]) for r in rows] == [("c/A2NS", "1", "2.00"), ("c/A1NS", "2", "1.33")]


@pytest.mark.parametrize("scoring", ["cross-imps", "butler"])
def test_an_organiser_defines_an_imp_sim_and_its_clubs_rank_in_imps(hub_db: str, tmp_path: Path,
                                                                    scoring: str) -> None:
    path = tmp_path / "deals.pbn"
    write_hand_records(path, 2)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.new_sim(conn, "imp1", "IMP sim", [datetime(2026, 4, 2, 19, 30, tzinfo=UTC)], 2,
                          organiser.hand_records(path, 2), scoring)
        row = conn.execute("SELECT scoring FROM sims WHERE id = 'imp1'").fetchone()
        assert row is not None and row[0] == scoring
        assert field_imps.sim_scoring(conn, "imp1") == scoring
        token = organiser.add_club(conn, "imp1", "leeds", "Leeds BC")
        club = club_of(conn, token)
        assert club is not None
        scores = {1: (420, 450, -50, 170), 2: (620, 650, -100, 170)}  # board 2: North-South vulnerable (Law 2)
        pushes = [wire.Push(i + 1, 100 + i, slot=slot("A", t, b, scores[b][(t + b) % 4]))
                  for i, (t, b) in enumerate((t, b) for t in range(1, 5) for b in (1, 2))]
        assert take(conn, club, wire.Batch("imp1", "leeds", tuple(pushes))).acked == len(pushes)
        rows = club_field.club_ranking(conn, "imp1", "leeds")
        results, penalties = field.load(conn, "imp1", "leeds")
        assert rows == field_imps.club_imps_ranking(results["leeds"], penalties.get("leeds", ()), scoring)
        assert len(rows) == 8 and all(r["mp"] is None and r["imps"] for r in rows)
        cards = club_field.pair_cards(conn, "imp1", "leeds/A1NS")
        assert cards is not None and [c[0] for c in cards] == [1, 2]
        ns = {}
        for b in (1, 2):
            board = [scores[b][(t + b) % 4] for t in range(1, 5)]
            own, others = board[0], board[1:]
            # Butler: the datum of -50, 170, 420, 450 less the highest and the lowest is 295, to the nearest 10 300;
            # of -100, 170, 620, 650 it is 395, 400
            datum = {1: 300, 2: 400}[b]
            ns[b] = (Fraction(sum(wbf_imps(Fraction(own - o)) for o in others), 3) if scoring == "cross-imps"
                     else Fraction(wbf_imps(Fraction(own - datum))))
        assert [Fraction(c[2]) for c in cards] == [Fraction(round(ns[b] * 100), 100) for b in (1, 2)]
        with pytest.raises(UsageError, match="scoring is one of"):
            organiser.new_sim(conn, "imp2", "x", [datetime(2026, 4, 2, tzinfo=UTC)], 2,
                              organiser.hand_records(path, 2), "teams")
