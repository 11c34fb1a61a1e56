"""The hub's USEBIO exports: the released field's file, rescored by `tenace score`, gives back the hub's national
ranking, a club's its own ranking; before release the routes and `tenace hub export` answer "not released"; the
command's wrong input is one line and exit code 2."""

from __future__ import annotations

import json
import random
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cli_runner import tenace
from lxml import etree
from starlette.testclient import TestClient

from tenace.hub import club_field, field, organiser
from tenace.hub.pages import hub_app
from tenace.protocol import wire
from tenace.reports.rescore_usebio import usebio_report
from tenace.scoring.butler import ButlerOptions
from tenace.scoring.cross_imps import CrossImpOptions
from tenace.scoring.mp_options import DEFAULT_OPTIONS
from tenace.usebio.reader import parse_usebio
from tenace.usebio.schema import check_file

from hub_sim import batch, make_sim, possible, slot

SCORES = (-200, -100, -50, 110, 120, 140, 400, 420, 430, 450, 460, 620, 650)
TABLES = {"c1": 3, "c2": 4, "c3": 2}  # counts differ across the field: Neuberg on the national boards



def _numbers(lines: dict[Any, tuple[Any, ...]]) -> dict[Any, tuple[Decimal | None, ...]]:
    return {key: tuple(None if v is None else Decimal(v) for v in sides) for key, sides in lines.items()}

def _push(client: TestClient, tokens: dict[str, str], penalty: tuple[str, str] = ("25", "%top")) -> int:
    """Every club's results, with an artificial score (A+/A-), a passed-out board, a lead, a board not played at
    one table (board 3 has fewer results: factored) and a Law 90 penalty (`penalty`: amount, unit); the results
    pushed."""
    rng = random.Random(11)
    pushed = 0
    for club, token in sorted(tokens.items()):
        slots = []
        for board in range(1, 5):
            for table in range(1, TABLES[club] + 1):
                if (club, table, board) == ("c2", 4, 3):
                    continue  # not played: board 3 has 8 results, the others 9
                if (club, table, board) == ("c1", 2, 2):
                    s = wire.SlotPush("A", table, 1, board, table, table, "NS", "EW", "result", "artificial",
                                      ns_adjust="A+", ew_adjust="A-")
                elif (club, table, board) == ("c3", 1, 1):
                    s = wire.SlotPush("A", table, 1, board, table, table, "NS", "EW", "result", "passed_out",
                                      ns_score=0)
                else:
                    s = slot("A", table, board, rng.choice(possible(board, SCORES)))
                    if (club, table, board) == ("c1", 1, 4):
                        s = wire.SlotPush(**{**s.__dict__, "lead": "SK"})
                slots.append(s)
        pushes = list(batch("sim1", club, 1, slots).pushes)
        if club == "c2":  # Law 90: a quarter of a top off NS 1 on board 1
            pushes.append(wire.Push(len(pushes) + 1, 900, penalty=wire.PenaltyPush("A", 1, "NS", *penalty, 1)))
        r = client.post(wire.PUSH_PATH, content=wire.encode(wire.Batch("sim1", club, tuple(pushes))),
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        pushed += len(slots)
    return pushed


def _scored(url: str, results: int) -> list[dict[str, Any]]:
    """The national ranking the hub stores, once a worker has scored every push."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT NOT EXISTS (SELECT 1 FROM slot_changes WHERE sim = 'sim1'), field FROM scores "
                               "WHERE sim = 'sim1'").fetchone()
        assert row is not None
        if row[0] and row[1] and row[1]["results"] == results:
            national: list[dict[str, Any]] = row[1]["national"]
            return national
        time.sleep(0.1)
    raise AssertionError("the sim was not scored")


def _hub_ids(data: bytes) -> dict[str, str]:
    """Each USEBIO pair number of the (one-section) file -> the hub's pair id its comment names."""
    root = etree.fromstring(data)
    out = {}
    for pair in root.iter("PAIR"):
        comments = [c.text.strip() for c in pair if isinstance(c, etree._Comment)]
        assert len(comments) == 1 and comments[0].startswith("hub pair "), comments
        out[pair.findtext("PAIR_NUMBER")] = comments[0].removeprefix("hub pair ")
    return out


def _score_cli(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> dict[str, tuple[str, str]]:
    """`tenace score FILE --json` on the file: each pair's (percentage, place) by its USEBIO number."""
    code, out, err = tenace(capsys, "score", str(path), "--json", *options)
    assert code == 0, err
    return {_number(line["pair"]): (f"{Decimal(str(line['percent'])):.2f}", line["rank"].rstrip("="))
            for line in json.loads(out)["ranking"]}


def _number(label: str) -> str:
    """A report's pair label ("NS 7", "7") as the file numbers the pair ("7NS", "7")."""
    direction, _, number = label.rpartition(" ")
    return f"{number}{direction}"


def _expected(rows: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, tuple[str, str]]:
    by_id = {r["pair"]: r for r in rows}
    assert set(by_id) == set(ids.values())
    return {number: (by_id[hub]["percent"], by_id[hub]["rank"].rstrip("=")) for number, hub in ids.items()}


def test_the_usebio_exports_give_back_the_hubs_rankings(hub_db: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=3)
    with TestClient(hub_app(hub_db)) as client:
        results = _push(client, tokens)
        national = _scored(hub_db, results)
        assert len(national) == 2 * sum(TABLES.values())

        # (c) Before release: both routes and the command answer "not released", and nothing is written.
        for url in ("/sim/sim1/export.xml", "/sim/sim1/club/c2/export.xml"):
            r = client.get(url)
            assert (r.status_code, r.text) == (404, "not released\n"), url
        out = tmp_path / "early.xml"
        code, _, err = tenace(capsys, "hub", "export", "--sim", "sim1", "--usebio", str(out))
        assert code == 2 and err.count("\n") == 1 and "not released" in err and not out.exists()

        with psycopg.connect(hub_db, autocommit=True) as conn:
            organiser.release(conn, "sim1")
        national = _scored(hub_db, results)

        # (a) The whole field: one file checked by the schema, which `tenace score` rescores into the hub's
        # national ranking, pair for pair (percentage and place).
        r = client.get("/sim/sim1/export.xml")
        assert r.status_code == 200 and r.headers["content-type"] == "application/xml"
        assert r.headers["content-disposition"] == 'attachment; filename="sim1.xml"'
        path = tmp_path / "field.xml"
        path.write_bytes(r.content)
        check_file(path)
        ids = _hub_ids(r.content)
        assert len(ids) == len(national) and "c2/A1NS" in ids.values()
        # The hub's figures are tenace score's defaults' (its totals add the published board MPs, as a club's do).
        assert _score_cli(capsys, path) == _expected(national, ids)
        assert b"tenace score FILE gives back its figures" in r.content
        # The totals come back too.
        report, _ = usebio_report(parse_usebio(r.content), DEFAULT_OPTIONS, ButlerOptions(), CrossImpOptions())
        mp = {r["pair"]: r["mp"] for r in national}
        assert {_number(line.pair.label): str(line.mp) for line in report.ranking} == \
            {number: mp[hub] for number, hub in ids.items()}
        root = etree.fromstring(r.content)
        number = {hub: n for n, hub in ids.items()}
        penalised = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == number["c2/A1NS"])
        assert penalised.findtext("ADJUSTMENT") == "-4"  # 25% of the field's top of 16
        scores = [line.findtext("SCORE") for line in root.iter("TRAVELLER_LINE")]
        assert scores.count("A6040") == 1 and len(scores) == results
        assert [line.findtext("LEAD") for line in root.iter("TRAVELLER_LINE") if line.findtext("LEAD")] == ["KS"]
        assert [line.findtext("CONTRACT") for line in root.iter("TRAVELLER_LINE")].count("PASS") == 1
        assert len(root.findall("HANDSET/BOARD")) == 4 and root.find("EVENT/SECTION") is None

        # (b) One club: its own results against its own field, rescored into the club's own ranking.
        r = client.get("/sim/sim1/club/c2/export.xml")
        assert r.status_code == 200
        assert r.headers["content-disposition"] == 'attachment; filename="sim1-c2.xml"'
        club_path = tmp_path / "c2.xml"
        club_path.write_bytes(r.content)
        check_file(club_path)
        with psycopg.connect(hub_db, autocommit=True) as conn:
            own = club_field.club_ranking(conn, "sim1", "c2")
        club_ids = _hub_ids(r.content)
        assert set(club_ids.values()) == {f"c2/A{t}{d}" for t in range(1, 5) for d in ("NS", "EW")}
        assert _score_cli(capsys, club_path) == _expected(own, club_ids)
        assert own != [row for row in national if row["pair"].startswith("c2/")]  # the two fields differ

        # The command writes the same file as the route, and the PBN export.
        out = tmp_path / "c2-again.xml"
        code, printed, err = tenace(capsys, "hub", "export", "--sim", "sim1", "--club", "c2",
                                    "--usebio", str(out))
        assert code == 0, err
        assert out.read_bytes() == r.content and str(out) in printed
        pbn = tmp_path / "field.pbn"
        assert tenace(capsys, "hub", "export", "--sim", "sim1", "--pbn", str(pbn))[0] == 0
        assert pbn.read_text() == client.get("/sim/sim1/export.pbn").text


def _score_imps(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> dict[str, tuple[str, str]]:
    """`tenace score FILE --json` on an IMP file: each pair's (IMP total to 0.01, place) by its USEBIO number."""
    code, out, err = tenace(capsys, "score", str(path), "--json", *options)
    assert code == 0, err
    return {_number(line["pair"]): (f"{Decimal(str(line['imps'])):.2f}", line["rank"].rstrip("="))
            for line in json.loads(out)["ranking"]}


def _expected_imps(rows: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, tuple[str, str]]:
    by_id = {r["pair"]: r for r in rows}
    assert set(by_id) == set(ids.values())
    assert all(r["imps"] is not None and r["mp"] is None for r in rows)  # an IMP ranking
    return {number: (by_id[hub]["imps"], by_id[hub]["rank"].rstrip("=")) for number, hub in ids.items()}


@pytest.mark.parametrize(("scoring", "event_type", "points"), [
    ("butler", "BUTLER_PAIRS", "BUTLER_POINTS"),
    ("cross-imps", "CROSS_IMP", "CROSS_IMP_POINTS"),
])
def test_an_imp_sims_usebio_exports_give_back_the_hubs_imp_rankings(
        hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], scoring: str, event_type: str,
        points: str) -> None:
    tokens = make_sim(hub_db, tmp_path, clubs=3, scoring=scoring)
    with TestClient(hub_app(hub_db)) as client:
        results = _push(client, tokens, penalty=("3", "MP"))  # Law 90 at IMPs: 3 IMPs off c2's NS 1
        with psycopg.connect(hub_db, autocommit=True) as conn:
            organiser.release(conn, "sim1")
        national = _scored(hub_db, results)
        assert len(national) == 2 * sum(TABLES.values())

        # The whole field: one section, every traveller line with its national IMPs, every pair with the hub's
        # stored national IMP total and place, which `tenace score` (its defaults are the hub's ButlerOptions()
        # and CrossImpOptions()) gives back.
        r = client.get("/sim/sim1/export.xml")
        assert r.status_code == 200, r.text
        path = tmp_path / "field.xml"
        path.write_bytes(r.content)
        check_file(path)
        root = etree.fromstring(r.content)
        assert root.find("EVENT").get("EVENT_TYPE") == event_type
        assert root.findtext("EVENT/SCORING_METHOD") == "IMPS" and root.find("EVENT/SECTION") is None
        ids = _hub_ids(r.content)
        assert len(ids) == len(national)
        assert _score_imps(capsys, path) == _expected_imps(national, ids)
        number = {hub: n for n, hub in ids.items()}
        penalised = next(p for p in root.iter("PAIR") if p.findtext("PAIR_NUMBER") == number["c2/A1NS"])
        assert penalised.findtext("ADJUSTMENT") == "-3"
        # The lines' IMPs are the national figures: rescored with the hub's options, every line comes back as
        # written, and every board's datum at Butler.
        _, figures = usebio_report(parse_usebio(r.content), field.NATIONAL, ButlerOptions(), CrossImpOptions())
        written = {(int(b.findtext("BOARD_NUMBER") or 0), i): (x.findtext(f"NS_{points}"),
                                                               x.findtext(f"EW_{points}"))
                   for b in root.iter("BOARD") for i, x in enumerate(b.iterfind("TRAVELLER_LINE"))}
        # compared as numbers: the file writes 6.5 for the 6.50 published (event_usebio's plain decimals)
        assert len(written) == results and _numbers(figures.lines) == _numbers(written)
        averages = {int(b.findtext("BOARD_NUMBER") or 0): b.findtext("BOARD_AVERAGE") for b in root.iter("BOARD")
                    if b.find("TRAVELLER_LINE") is not None}
        if scoring == "butler":
            assert averages == figures.datums and len(averages) == 4
        else:
            assert set(averages.values()) == {None}
        # A result with no IMP figure has no line either: the field's lines are its played and A+/A- results.
        scores = [line.findtext("SCORE") for line in root.iter("TRAVELLER_LINE")]
        assert scores.count("A6040") == 1 and len(scores) == results
        assert [line.findtext("LEAD") for line in root.iter("TRAVELLER_LINE") if line.findtext("LEAD")] == ["KS"]
        # Under other options than the hub's the file does not give the ranking back: the comparison can fail.
        other = ("--trim", "0") if scoring == "butler" else ("--unit", "total")
        assert _score_imps(capsys, path, *other) != _expected_imps(national, ids)

        # One club: its own results against its own field in IMPs, rescored into the club's own IMP ranking.
        r = client.get("/sim/sim1/club/c2/export.xml")
        assert r.status_code == 200, r.text
        club_path = tmp_path / "c2.xml"
        club_path.write_bytes(r.content)
        check_file(club_path)
        assert etree.fromstring(r.content).find("EVENT").get("EVENT_TYPE") == event_type
        with psycopg.connect(hub_db, autocommit=True) as conn:
            own = club_field.club_ranking(conn, "sim1", "c2")
        club_ids = _hub_ids(r.content)
        assert set(club_ids.values()) == {f"c2/A{t}{d}" for t in range(1, 5) for d in ("NS", "EW")}
        assert _score_imps(capsys, club_path) == _expected_imps(own, club_ids)
        mine = {row["pair"]: row["imps"] for row in national if row["pair"].startswith("c2/")}
        assert {row["pair"]: row["imps"] for row in own} != mine  # the two fields differ

        # The command writes the same file as the route.
        out = tmp_path / "c2-again.xml"
        code, printed, err = tenace(capsys, "hub", "export", "--sim", "sim1", "--club", "c2",
                                    "--usebio", str(out))
        assert code == 0, err
        assert out.read_bytes() == r.content and str(out) in printed

        # What USEBIO cannot hold at IMPs, an assigned score (a line's score would be compared as played), is
        # refused in one line, from the route and from the command.
        assigned = wire.SlotPush("A", 9, 1, 1, 9, 9, "NS", "EW", "result", "weighted", weights="3/5:420 2/5:-50")
        pushed = client.post(wire.PUSH_PATH, content=wire.encode(batch("sim1", "c1", 4 * TABLES["c1"] + 1, [assigned])),
                             headers={"Authorization": f"Bearer {tokens['c1']}"})
        assert pushed.status_code == 200, pushed.text
        r = client.get("/sim/sim1/export.xml")
        assert r.status_code == 409 and r.text.count("\n") == 1 and "assigned score at IMPs" in r.text
        code, _, err = tenace(capsys, "hub", "export", "--sim", "sim1", "--usebio",
                              str(tmp_path / "imps.xml"))
        assert code == 2 and err.count("\n") == 1 and "assigned score at IMPs" in err
        assert not (tmp_path / "imps.xml").exists()


@pytest.mark.parametrize(("args", "says"), [
    (["--sim", "nosuch", "--usebio", "{tmp}/a.xml"], "there is no sim 'nosuch'"),
    (["--sim", "sim1", "--club", "nosuch", "--usebio", "{tmp}/a.xml"], "sim 'sim1' has no club 'nosuch'"),
    (["--sim", "sim1", "--club", "nosuch", "--pbn", "{tmp}/a.pbn"], "sim 'sim1' has no club 'nosuch'"),
    (["--sim", "sim1", "--usebio", "{tmp}/no-folder/a.xml"], "there is no folder"),
    (["--sim", "sim1", "--pbn", "{tmp}"], "is a folder"),
])
def test_the_commands_wrong_input_is_one_line(hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               args: list[str], says: str) -> None:
    make_sim(hub_db, tmp_path, clubs=1)
    with psycopg.connect(hub_db, autocommit=True) as conn:
        organiser.release(conn, "sim1")
    code, out, err = tenace(capsys, "hub", "export", *(a.format(tmp=tmp_path) for a in args))
    assert code == 2 and out == "" and err.count("\n") == 1 and says in err and "Traceback" not in err


def test_the_command_wants_one_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = tenace(capsys, "hub", "export", "--db", "postgresql://x/y", "--sim", "s")
    assert code == 2 and "--usebio" in err and "--pbn" in err
    code, out, _ = tenace(capsys, "hub", "export", "--help")
    assert code == 0 and "--club" in out and "USEBIO" in out
