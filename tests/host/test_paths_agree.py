"""Every path agrees, by property (issue 31, design rule 8): random events (Mitchell, Howell and a movement that
plays a board twice at a table, one to three sections, matchpoints and IMPs) with every kind of director's action the
store holds, scored by `tenace results` (the report model), its public JSON, `tenace score` of the PBN export and of
the USEBIO export (which refuses a weighted or split score: asserted, that path alone skipped), and the hub for a
smaller number of one-section events (one club alone: its national ranking is its club ranking). Every traveller
line (NS score, each side's MPs and percentages or IMPs) and every ranking row (place, MPs and percentage or IMPs,
the penalty) must agree; a failing event's seed is in the assertion's message, `make_event(seed)` builds it again.
"""

from __future__ import annotations

import json
import random
import secrets
import sqlite3
import time
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from cli_runner import tenace

from tenace.movement import Encounter, Movement, howell, mitchell
from tenace.reports.event_results import ResultsError, event_results
from tenace.reports.json import to_document
from tenace.store import create_event
from tenace.store.director import Action, EntryError, add_penalty, enter_result
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score

EVENTS = 300  # seeded events scored the four club ways: some 50 s of CPU (3 min on a busy 2-core machine)
FIRST_SEED = 1
SIGN = {"who": "TD", "why": "a ruling"}
CONTRACTS = ("1NT", "2S", "3H", "3NT", "4S", "4HX", "5DX", "6NT", "2CXX", "4S")


def twice(tables: int, per_round: int) -> Movement:
    """Two rounds in which every table plays its own boards both times, the pairs having moved (a movement changed in
    the evening, or a .bws imported so): round 1 NS t v EW t, round 2 NS t+1 v EW t+2 at table t."""
    encounters = []
    for t in range(1, tables + 1):
        boards = tuple(range((t - 1) * per_round + 1, t * per_round + 1))
        encounters.append(Encounter(t, 1, t, t, boards))
        encounters.append(Encounter(t, 2, t % tables + 1, (t + 1) % tables + 1, boards))
    return Movement("a board twice at a table", tables=tables, rounds=2, boards_per_round=per_round,
                    encounters=tuple(encounters))


@dataclass(frozen=True)
class Made:
    """An event as generated: its file, scoring, sections and the director's actions (for a failure's message)."""

    path: Path
    scoring: str
    sections: dict[str, Movement]
    actions: tuple[str, ...]


def _movement(rng: random.Random) -> tuple[str, Movement]:
    kind = rng.choice(("mitchell", "mitchell", "howell", "twice"))
    if kind == "mitchell":
        return kind, mitchell(rng.randint(3, 5), rng.randint(2, 3), rounds=rng.choice((None, 3)))
    if kind == "howell":
        tables = rng.choice((3, 4))
        return kind, howell(tables, 3 if tables == 3 else 2, rounds=rng.choice((None, 4)))
    return kind, twice(rng.randint(3, 4), 2)


def _played(rng: random.Random, board: int) -> tuple[str, str, int]:
    return rng.choice(CONTRACTS), rng.choice("NESW"), rng.randint(6, 13)


def _score(rng: random.Random, board: int) -> int:
    contract, declarer, tricks = _played(rng, board)
    return ns_score(parse_contract(contract), declarer, vulnerability(board), tricks)


def _weights(rng: random.Random, board: int, parts: int) -> list[tuple[Fraction, int]]:
    shares = {1: (Fraction(1),), 2: (Fraction(3, 5), Fraction(2, 5)),
              3: (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))}[parts]
    return [(w, _score(rng, board)) for w in shares]


def make_event(seed: int, folder: Path) -> Made:
    """The event of `seed`: its movements, every slot's result, then the director's actions on random slots."""
    rng = random.Random(seed)
    scoring = rng.choice(("matchpoints", "matchpoints", "imps"))
    names = "ABC"[:rng.choice((1, 1, 2, 3))]
    kinds = {name: _movement(rng) for name in names}
    sections = {name: movement for name, (_, movement) in kinds.items()}
    howells = {name for name, (kind, _) in kinds.items() if kind == "howell"}
    path = folder / f"event-{seed}.sqlite"
    conn = create_event(path, name=f"Seed {seed}", date="2024-05-14", sections=sections, scoring=scoring)
    done: list[str] = []
    try:
        for name, movement in sections.items():
            slots = [(e.table, e.round, b) for e in movement.encounters for b in e.boards]
            for table, round_, board in slots:
                if rng.random() < 0.05:
                    continue  # never entered: missing
                contract, declarer, tricks = _played(rng, board)
                enter_result(conn, name, table, round_, board, contract=contract, declarer=declarer, tricks=tricks,
                             **SIGN)
            for _ in range(rng.randint(0, 6)):
                table, round_, board = rng.choice(slots)
                what = rng.choice(("artificial", "percent", "assigned", "weighted2", "weighted3", "split",
                                   "not_played", "passed_out", "erase", "correct"))
                where = (name, table, round_, board)
                try:
                    if what == "artificial":
                        ns, ew = rng.choice((("A+", "A-"), ("A", "A"), ("A-", "A+"), ("A+", "A+"), ("A-", "A")))
                        enter_result(conn, *where, kind="artificial", ns_adjust=ns, ew_adjust=ew,
                                     action=Action.ADJUST, **SIGN)
                    elif what == "percent":
                        enter_result(conn, *where, kind="artificial", ns_adjust="60%", ew_adjust="40%",
                                     action=Action.ADJUST, **SIGN)
                    elif what in ("assigned", "weighted2", "weighted3"):
                        parts = {"assigned": 1, "weighted2": 2, "weighted3": 3}[what]
                        enter_result(conn, *where, kind="weighted", weights=_weights(rng, board, parts),
                                     action=Action.ADJUST, **SIGN)
                    elif what == "split":
                        enter_result(conn, *where, kind="weighted", weights=_weights(rng, board, rng.choice((1, 2))),
                                     ew_weights=_weights(rng, board, rng.choice((1, 2))), action=Action.ADJUST,
                                     **SIGN)
                    elif what in ("not_played", "passed_out"):
                        enter_result(conn, *where, kind=what, **SIGN)
                    elif what == "erase":
                        enter_result(conn, *where, kind="erased", action=Action.ERASE, **SIGN)
                    else:
                        contract, declarer, tricks = _played(rng, board)
                        enter_result(conn, *where, contract=contract, declarer=declarer, tricks=tricks, **SIGN)
                except EntryError:
                    continue  # erased already: nothing recorded
                done.append(f"{what} {name}{table}/{round_}/{board}")
            if scoring == "matchpoints":
                pairs = sorted({(e.ns_pair, e.ew_pair) for e in movement.encounters})
                one_field = name in howells
                for _ in range(rng.choice((0, 0, 1, 2))):
                    ns, ew = rng.choice(pairs)
                    direction, pair = rng.choice((("NS", ns), ("EW", ew)))
                    unit, amount = rng.choice((("MP", Fraction(rng.choice((1, 3, 5)), 2)),
                                               ("%top", Fraction(rng.choice((25, 50, 100))))))
                    board = None
                    if rng.random() < 0.4:
                        seats = [e for e in movement.encounters if pair in (
                            (e.ns_pair, e.ew_pair) if one_field else (e.ns_pair if direction == "NS" else e.ew_pair,))]
                        board = rng.choice(rng.choice(seats).boards)
                    add_penalty(conn, name, pair, None if one_field else direction, amount, unit, board=board,
                                **SIGN)
                    done.append(f"penalty {name} {direction} {pair} {amount}{unit} board {board}")
    finally:
        conn.close()
    return Made(path, scoring, sections, tuple(done))


# --- each path's figures, in one shape -----------------------------------------------------------------------

LINE_FIGURES = ("ns_score", "mp_ns", "mp_ew", "percent_ns", "percent_ew", "imp_ns", "imp_ew")
ROW_FIGURES = ("field", "rank", "pair", "boards", "mp", "percent", "imps", "penalty")


def _figure(value: Any, imps: bool = False) -> Any:
    """A figure as a Decimal; IMPs to the club's 1 decimal, half away from zero (`tenace score` publishes 2; a weighted
    score's IMPs, in 30ths, never end in an exact 5 at the second decimal, so rounding again is exact)."""
    if value is None or not isinstance(value, float | Decimal | int) or isinstance(value, bool):
        return value
    figure = Decimal(str(value))
    return figure.quantize(Decimal("0.1"), ROUND_HALF_UP) if imps else figure


def _pair(label: str | None) -> str | None:
    """A pair as one section's file names it: "A-NS 3" of the event's report is "NS 3" in the section's PBN."""
    return None if label is None else label.split("-", 1)[-1]


def _ns_score(line: dict[str, Any]) -> int | None:
    """What the line scores NS: its played score, or the score the director assigned (a weight of 1, for both
    sides: USEBIO holds it as a played score)."""
    adjusted = line.get("adjustment") or {}
    weights = str(adjusted.get("weights") or "")
    if line["ns_score"] is None and weights and " " not in weights and not adjusted.get("ew_weights"):
        weight, _, assigned = weights.partition(":")
        if Fraction(weight) == 1:
            return int(assigned)
    score: int | None = line["ns_score"]
    return score


def figures(report: dict[str, Any]) -> tuple[dict[tuple[Any, ...], list[tuple[Any, ...]]], list[tuple[Any, ...]]]:
    """A report document's traveller lines by (board, NS pair, EW pair) (a board played twice by the same pairs
    nowhere: a list all the same) and its ranking rows, every figure a Decimal."""
    lines: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for board in report["boards"]:
        for line in board["lines"]:
            key = (board["board"], _pair(line["ns_pair"]), _pair(line["ew_pair"]))
            shown = (_ns_score(line), *(_figure(line[k], k.startswith("imp")) for k in LINE_FIGURES[1:]))
            if any(figure is not None for figure in shown):  # a board not played: nothing to compare
                lines.setdefault(key, []).append(shown)
    rows = [tuple(_pair(row[k]) if k == "pair" else row[k] if k in ("rank", "field", "boards")
                  else _figure(row[k], k == "imps") for k in ROW_FIGURES) for row in report["ranking"]]
    # Pairs sharing a place in the order each path lists them (`tenace score`: as they first appear in the file).
    ranked = sorted(rows, key=lambda r: (r[0], int(r[1].rstrip("=")), r[2]))
    return {k: sorted(v, key=repr) for k, v in lines.items()}, ranked


def differences(got: Any, want: Any) -> str:
    """What a path shows unlike the report, first few: the lines by key, then the ranking rows."""
    (got_lines, got_rows), (want_lines, want_rows) = got, want
    out = [f"{key}: {got_lines.get(key)} != {want_lines.get(key)}"
           for key in sorted({*got_lines, *want_lines}, key=repr) if got_lines.get(key) != want_lines.get(key)]
    out += [f"row {a} != {b}" for a, b in zip(got_rows, want_rows, strict=False) if a != b]
    if len(got_rows) != len(want_rows):
        out.append(f"{len(got_rows)} rows != {len(want_rows)}")
    return "; ".join(out[:4])


def usebio_holds(report: dict[str, Any]) -> bool:
    """Whether USEBIO can hold every director's score of the report: not a weighted or split score, nor an assigned
    one at IMPs (read back as played, into the datum), nor an explicit 60, 50 or 40% (read back as A+, A, A-)."""
    for board in report["boards"]:
        for line in board["lines"]:
            adjusted = line["adjustment"] or {}
            weights = adjusted.get("weights") or ""
            if adjusted.get("ew_weights") or " " in weights or (weights and report["method"] != "mp"):
                return False
            if any(adjusted.get(side) in ("60%", "50%", "40%") for side in ("ns", "ew")):
                return False
    return True


def _score_json(capsys: pytest.CaptureFixture[str], path: Path, method: str) -> dict[str, Any]:
    """`tenace score FILE.pbn` by the event's method (a PBN file does not say it: mp unless told)."""
    code, out, err = tenace(capsys, "score", str(path), "--json", "--method", method)
    assert code == 0 and "left out" not in err, err
    document: dict[str, Any] = json.loads(out)
    return document


def agree(made: Made, seed: int, capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    """The four club paths of every section, against the report model's figures."""
    conn = sqlite3.connect(made.path)
    try:
        model = {s.section: to_document(s.report) for s in event_results(conn).sections}
    except ResultsError as e:  # e.g. Butler: an assigned score on a board with no other result to form a datum
        code, out, err = tenace(capsys, "results", str(made.path), "--json")
        assert code == 2 and str(e) in err and not out, f"seed {seed}: {err}"
        return
    finally:
        conn.close()
    code, out, err = tenace(capsys, "results", str(made.path), "--json")
    assert code == 0, err
    public = {s["section"]: s["report"] for s in json.loads(out)["sections"]}
    why = f"seed {seed}: {', '.join(made.actions) or 'no director action'}"
    for section, want in model.items():
        expected = figures(want)
        shown = figures(public[section])
        assert shown == expected, f"public JSON, section {section}, {why}: {differences(shown, expected)}"
        pbn = folder / f"{seed}-{section}.pbn"
        code, _, err = tenace(capsys, "report", str(made.path), "--section", section, "--pbn", str(pbn))
        assert code == 0, f"{why}: {err}"
        shown = figures(_score_json(capsys, pbn, want["method"]))
        assert shown == expected, f"PBN export, section {section}, {why}: {differences(shown, expected)}"
    xml = folder / f"{seed}.xml"
    code, _, err = tenace(capsys, "report", str(made.path), "--usebio", str(xml), "--club", "Riga BC")
    if not all(usebio_holds(report) for report in model.values()):
        assert code == 2 and "USEBIO" in err and err.count("\n") == 1 and not xml.exists(), f"{why}: {err}"
        return
    assert code == 0, f"{why}: {err}"
    for section, want in model.items():
        args = ("--section", section) if len(model) > 1 else ()
        code, out, err = tenace(capsys, "score", str(xml), "--json", *args)
        assert code == 0 and "left out" not in err, f"{why}: {err}"
        shown, expected = figures(json.loads(out)), figures(want)
        assert shown == expected, f"USEBIO export, section {section}, {why}: {differences(shown, expected)}"


@pytest.mark.slow
@pytest.mark.parametrize("block", range(EVENTS // 50), ids=lambda b: f"seeds{FIRST_SEED + 50 * b}-")
def test_every_club_path_gives_the_same_figures(block: int, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(FIRST_SEED + 50 * block, FIRST_SEED + 50 * (block + 1)):
        folder = tmp_path / str(seed)
        folder.mkdir()
        agree(make_event(seed, folder), seed, capsys, folder)


# --- the hub: one club alone -------------------------------------------------------------------------------------

HUB_EVENTS = 15  # one-section matchpoint events (a sim is scored so), each its own database: some 4 s each


def _hub_pair(pair: str) -> str:
    """The hub's "c1/A3NS" (a Howell's "c1/A3") as one section's file names it: "NS 3" ("3")."""
    number = pair.split("/", 1)[1][1:]
    return f"{number[-2:]} {number[:-2]}" if number[-2:] in ("NS", "EW") else number


def _hub_database(cluster: Any) -> str:
    import psycopg

    from tenace.hub.schema import migrate

    name = f"t{secrets.token_hex(6)}"
    with psycopg.connect(cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url: str = cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    return url


@pytest.mark.slow
def test_one_club_alone_at_the_hub_is_its_club_ranking(pg_cluster: Any, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The hub's national ranking of a sim of one club: the club's pairs, places, boards, MPs and percentages as
    `tenace results` ranks them (the hub totals the published board MPs, as the club does)."""
    from starlette.testclient import TestClient

    from tenace.hub.pages import hub_app
    from tenace.protocol import wire
    from tenace.store import connect
    from tenace.store.hub_outbox import link_sim, pending

    from hub_sim import make_sim

    checked, seed = 0, FIRST_SEED
    while checked < HUB_EVENTS:
        seed += 1
        folder = tmp_path / str(seed)
        folder.mkdir()
        rng = random.Random(seed)
        if rng.choice(("matchpoints", "matchpoints", "imps")) != "matchpoints" or rng.choice((1, 1, 2, 3)) != 1:
            continue  # make_event's first two draws: a sim is one section scored in matchpoints
        made = make_event(seed, folder)
        movement = next(iter(made.sections.values()))
        url = _hub_database(pg_cluster)
        tokens = make_sim(url, folder, clubs=1, boards=max(b for e in movement.encounters for b in e.boards), sim="s")
        conn = connect(made.path)
        try:
            link_sim(conn, "http://testserver", "s", "c1", tokens["c1"])
            pushes = pending(conn, 0, 10_000)
        finally:
            conn.close()
        code, out, err = tenace(capsys, "results", str(made.path), "--json")
        assert code == 0, f"seed {seed}: {err}"
        (section,) = json.loads(out)["sections"]
        want = sorted((_pair(r["pair"]), r["rank"], r["boards"], Decimal(str(r["mp"])), Decimal(str(r["percent"])))
                      for r in section["report"]["ranking"])
        with TestClient(hub_app(url)) as client:
            answer = client.post(wire.PUSH_PATH, content=wire.encode(wire.Batch("s", "c1", tuple(pushes))),
                                 headers={"Authorization": f"Bearer {tokens['c1']}"})
            assert answer.status_code == 200, f"seed {seed}: {answer.text}"
            shown: list[tuple[Any, ...]] = []
            deadline = time.monotonic() + 30  # polled: the hub's worker scores after the push's NOTIFY
            while time.monotonic() < deadline and shown != want:
                shown = sorted((_hub_pair(r["pair"]), r["rank"], r["boards"], Decimal(r["mp"]), Decimal(r["percent"]))
                               for r in client.get("/api/sim/s/national?all=1").json())
                time.sleep(0.05)
        assert shown == want, f"hub, seed {seed}: {', '.join(made.actions) or 'no director action'}"
        checked += 1
