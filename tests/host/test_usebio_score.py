"""`tenace score FILE.xml`: USEBIO 1.2 events rescored, Compscore3's published figures reproduced, --usebio OUT."""

from __future__ import annotations

import io
import json
import os
import sys
import xml.etree.ElementTree as ET
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from cli_runner import tenace

from tenace.usebio.reader import UsebioError, is_usebio, parse_usebio
from tenace.usebio.schema import parse, problems

from conftest import ORACLES, in_ci, needs_oracles

USEBIO = ORACLES / "usebio"
# The Compscore3 files are a folder of their own in the oracles: where it alone is missing, its tests skip with
# one reason (needs_oracles skips them with the others'); in CI they run, and fail on the missing file.
_NO_USEBIO = not (USEBIO / "SOURCE.md").is_file() and not in_ci(os.environ)
needs_usebio = pytest.mark.skipif(_NO_USEBIO, reason=f"{USEBIO} is absent (the real USEBIO files of the shared "
                                                     "oracles: put the shared folder beside the project)")
# The computed elements: what --usebio OUT rewrites and --preset compscore3 must reproduce.
LINE_POINTS = ("NS_MATCH_POINTS", "EW_MATCH_POINTS", "NS_BUTLER_POINTS", "EW_BUTLER_POINTS", "NS_CROSS_IMP_POINTS",
               "EW_CROSS_IMP_POINTS")
PAIR_FIGURES = ("TOTAL_SCORE", "PERCENTAGE", "PLACE")
COMPUTED = (*LINE_POINTS, *PAIR_FIGURES, "BOARD_AVERAGE")
EXACT = ("compscore3-mp_pairs_mitchell.xml", "compscore3-mp_pairs_mitchell_sitout.xml", "compscore3-butler_howell.xml",
         "compscore3-cross_imp_howell.xml")


def computed(data: bytes) -> list[tuple[str, str, str]]:
    """Every computed element of a USEBIO file in document order: (where, tag, text)."""
    root = ET.fromstring(data)
    out = []
    for board in root.iter("BOARD"):
        number = board.findtext("BOARD_NUMBER")
        if board.find("TRAVELLER_LINE") is None and board.find("BOARD_AVERAGE") is None:
            continue  # a HANDSET's board: the deal
        if board.find("BOARD_AVERAGE") is not None:
            out.append((f"board {number}", "BOARD_AVERAGE", board.findtext("BOARD_AVERAGE", "")))
        for i, line in enumerate(board.iter("TRAVELLER_LINE")):
            out += [(f"board {number} line {i}", e.tag, e.text or "") for e in line if e.tag in LINE_POINTS]
    for pair in root.iter("PAIR"):
        out += [(f"pair {pair.findtext('PAIR_NUMBER')}", e.tag, e.text or "") for e in pair if e.tag in PAIR_FIGURES]
    return out


def wiped(data: bytes) -> bytes:
    """The file with every computed element's text replaced by 0: what a rescoring must fill in again."""
    text = data.decode("ascii")
    for tag in COMPUTED:
        parts = text.split(f"<{tag}>")
        text = parts[0] + "".join(f"<{tag}>0" + p[p.index(f"</{tag}>"):] for p in parts[1:])
    return text.encode("ascii")


def score(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, str, str]:
    return tenace(capsys, "score", *map(str, args))


def rescored(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, *options: str) -> bytes:
    source, out = tmp_path / "in.xml", tmp_path / "out.xml"
    source.write_bytes(data)
    code, _, err = score(capsys, source, "--usebio", out, *options)
    assert code == 0, err
    return out.read_bytes()


# --- Compscore3's files: every published figure ------------------------------------------------------------

@needs_oracles
@needs_usebio
@pytest.mark.parametrize("name", EXACT)
def test_compscore3_figures_reproduced_to_the_last_decimal(name: str, capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    """Every computed figure wiped, then rescored with --preset compscore3: each comes back as published."""
    published = (USEBIO / name).read_bytes()
    want = computed(published)
    assert len(want) > 200  # traveller points on every line, and each pair's figures
    got = computed(rescored(capsys, tmp_path, wiped(published), "--preset", "compscore3"))
    assert [w for w, g in zip(want, got, strict=True) if w != g] == []
    assert computed(wiped(published)) != want  # the wiping did take the figures out


@needs_oracles
@needs_usebio
@pytest.mark.parametrize("name", EXACT)
def test_usebio_out_changes_nothing_but_the_computed_figures(name: str, capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """The published file rescored is itself byte for byte (declaration, DOCTYPE, layout, names); rescoring the
    written file gives it again."""
    published = (USEBIO / name).read_bytes()
    once = rescored(capsys, tmp_path, wiped(published), "--preset", "compscore3")
    assert once == published
    assert rescored(capsys, tmp_path, once, "--preset", "compscore3") == once


@needs_oracles
@needs_usebio
def test_compscore3_prorates_a_pair_that_missed_boards_of_its_field_not_a_sit_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The Mitchell's 9EW scored 26 boards where the other EW pairs scored 27: its total is brought to 27
    (--unequal-boards field, the preset's); the sit-out Mitchell's NS pairs all scored 18 boards and keep their sums.
    --unequal-boards plain gives 9EW its plain sum, over the same percentage."""
    def ranking(name: str, *options: str) -> dict[str, dict[str, Any]]:
        code, out, err = score(capsys, USEBIO / name, "--preset", "compscore3", "--json", *options)
        assert code == 0, err
        return {line["pair"]: line for line in json.loads(out)["ranking"]}
    field = ranking("compscore3-mp_pairs_mitchell.xml")
    plain = ranking("compscore3-mp_pairs_mitchell.xml", "--unequal-boards", "plain")
    boards = {pair: line["boards"] for pair, line in field.items() if pair.startswith("EW")}
    assert boards["EW 9"] == 26 and {b for p, b in boards.items() if p != "EW 9"} == {27}
    assert Decimal(str(field["EW 9"]["mp"])) == (Decimal(str(plain["EW 9"]["mp"])) * 27 / 26).quantize(Decimal("0.01"))
    assert field["EW 9"]["percent"] == plain["EW 9"]["percent"]
    assert all(field[p]["mp"] == plain[p]["mp"] for p in field if field[p]["boards"] == 27)
    sitout = ranking("compscore3-mp_pairs_mitchell_sitout.xml")
    assert {line["boards"] for p, line in sitout.items() if p.startswith("NS")} == {18}
    assert sitout == ranking("compscore3-mp_pairs_mitchell_sitout.xml", "--unequal-boards", "plain")


@needs_oracles
@needs_usebio
def test_compscore3_mitchell_json_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: each pair's total, percentage and place as the file publishes them, with its players' names and
    national numbers."""
    path = USEBIO / "compscore3-mp_pairs_mitchell.xml"
    code, out, err = score(capsys, path, "--preset", "compscore3", "--json")
    assert code == 0, err
    doc = json.loads(out)
    root = ET.parse(path).getroot()
    ranking = {"".join(reversed(line["pair"].split())): line for line in doc["ranking"]}  # "NS 3": 3NS
    assert len(ranking) == 38
    for pair in root.iter("PAIR"):
        line = ranking[pair.findtext("PAIR_NUMBER", "")]
        assert Decimal(str(line["mp"])) == Decimal(pair.findtext("TOTAL_SCORE", ""))
        assert Decimal(str(line["percent"])) == Decimal(pair.findtext("PERCENTAGE", ""))
        assert line["rank"].rstrip("=") == pair.findtext("PLACE")
        players = pair.findall("PLAYER")
        assert line["names"] == " - ".join(p.findtext("PLAYER_NAME", "") for p in players)
        assert line["members"] == [p.findtext("NATIONAL_ID_NUMBER") for p in players]
    assert {line["field"] for line in doc["ranking"]} == {"NS", "EW"}  # a Mitchell: two fields


def traveller(root: ET.Element) -> dict[int, list[ET.Element]]:
    return {int(b.findtext("BOARD_NUMBER", "")): list(b.iter("TRAVELLER_LINE")) for b in root.iter("BOARD")
            if b.find("TRAVELLER_LINE") is not None}


def points(line: ET.Element) -> tuple[str, str]:
    return line.findtext("NS_MATCH_POINTS", ""), line.findtext("EW_MATCH_POINTS", "")


@needs_oracles
@needs_usebio
def test_compscore3_adjusted_file_reproduced_but_for_the_scorers_hand_overrides(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The adjusted file rescored as published under --preset compscore3: every traveller line is reproduced but
    those the file itself shows were set by hand, and its totals are not those of its own traveller points. Each
    exception is found here from the file's data, not listed."""
    published = (USEBIO / "compscore3-mp_pairs_mitchell_adjusted.xml").read_bytes()
    root = ET.fromstring(published)
    boards = traveller(root)
    most = max(map(len, boards.values()))
    top = 2 * (most - 1)
    # An adjusted line that kept its played SCORE (ArtificialLines.POINTS): on a board of every line, with no
    # artificial SCORE, whose points carry tenths (factored: fewer results compared than lines), the line written
    # as two whole numbers adding up to the top. Its points are its artificial score, and the board's other
    # results are compared among themselves and factored to the top: every line of that board comes back.
    kept_score = [(n, i) for n, lines in boards.items() if len(lines) == most
                  and not any(ln.findtext("SCORE", "").startswith("A") for ln in lines)
                  and any("." in "".join(points(ln)) for ln in lines)
                  for i, ln in enumerate(lines) if all(p.isdigit() for p in points(ln))
                  and sum(map(int, points(ln))) == top]
    assert kept_score and all(boards[n][i].findtext("SCORE", "").lstrip("-").isdigit() for n, i in kept_score)
    got = computed(rescored(capsys, tmp_path, published, "--preset", "compscore3"))
    want = computed(published)
    wrong = {(w[0], w[1]) for w, g in zip(want, got, strict=True) if w != g}
    wrong_lines = {where for where, _ in wrong if "line" in where}
    assert not {f"board {n} line {i}" for n, _ in kept_score for i in range(len(boards[n]))} & wrong_lines
    # Set by hand, from the file: (a) an artificial SCORE whose points are not its percentages of the top (they
    # do not even add up to it); (b) a played line whose points are those every other line of the same score on
    # the board has, NS's and EW's exchanged (the pairs' directions crossed).
    by_hand = set()
    for n, lines in boards.items():
        for i, ln in enumerate(lines):
            score, (ns, ew) = ln.findtext("SCORE", ""), points(ln)
            if score.startswith("A"):
                shares = (Decimal(score[1:3]) * top / 100, Decimal(score[3:5]) * top / 100)
                if (Decimal(ns), Decimal(ew)) != shares:
                    assert Decimal(ns) + Decimal(ew) != top
                    by_hand.add(f"board {n} line {i}")
                continue
            same = {points(o) for j, o in enumerate(lines) if j != i and o.findtext("SCORE") == score}
            if same == {(ew, ns)} and ns != ew:
                by_hand.add(f"board {n} line {i}")
    assert wrong_lines == by_hand and by_hand
    # The published totals are whole numbers while boards carry tenths: they are not the sums of the file's own
    # traveller points, whether each is added as written or rounded to a whole number first (half-up, half-even,
    # down or up): for most pairs no way gives them, so no rescoring of the travellers can.
    totals = {p.findtext("PAIR_NUMBER", ""): Decimal(p.findtext("TOTAL_SCORE", "")) for p in root.iter("PAIR")}
    assert all(t == t.to_integral_value() for t in totals.values())
    for rounding in (None, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_FLOOR, ROUND_CEILING):
        sums: dict[str, Decimal] = {}
        for lines in boards.values():
            for ln in lines:
                for side, text in zip(("NS", "EW"), points(ln), strict=True):
                    pair = ln.findtext(f"{side}_PAIR_NUMBER", "")
                    value = Decimal(text) if rounding is None else Decimal(text).quantize(Decimal(1), rounding)
                    sums[pair] = sums.get(pair, Decimal(0)) + value
        assert sum(1 for p in totals if sums[p] == totals[p]) < len(totals) / 2, rounding
    assert {where for where, tag in wrong if tag == "TOTAL_SCORE"} == {f"pair {p}" for p in totals}
    # ... while each published percentage is its published total over the boards' tops (each pair plays every
    # board), to 2 decimals.
    for pair in root.iter("PAIR"):
        percent = Decimal(pair.findtext("TOTAL_SCORE", "")) * 100 / (len(boards) * top)
        assert percent.quantize(Decimal("0.01")) == Decimal(pair.findtext("PERCENTAGE", ""))


@needs_oracles
@needs_usebio
def test_an_event_type_not_scored_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(capsys, USEBIO / "compscore3-notsupported.xml")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "EVENT_TYPE 'NOTSUP' is not scored" in err


@needs_oracles
@needs_usebio
def test_usebio_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = (USEBIO / "compscore3-butler_howell.xml").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = score(capsys, "-", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["method"] == "butler"
    assert [(r["pair"], r["imps"]) for r in doc["ranking"][:2]] == [("4", 34.0), ("3", 25.0)]
    assert doc["boards"][0]["datum"] == 160


# --- without the oracles: a small event, and what is refused ----------------------------------------------

def event(boards: str, pairs: str = "", event_type: str = "MP_PAIRS", head: str = "") -> bytes:
    players = "".join(f"<PAIR><PAIR_NUMBER>{p}</PAIR_NUMBER><DIRECTION>{p[-2:]}</DIRECTION><TOTAL_SCORE>0"
                      f"</TOTAL_SCORE><PERCENTAGE>0</PERCENTAGE><PLACE>0</PLACE><PLAYER><PLAYER_NAME>Ann {p}"
                      f"</PLAYER_NAME><NATIONAL_ID_NUMBER>{100 + i}</NATIONAL_ID_NUMBER></PLAYER></PAIR>"
                      for i, p in enumerate(pairs.split()))
    return (f'<?xml version="1.0"?>\n{head}<USEBIO Version="1.2">\n<EVENT EVENT_TYPE="{event_type}">'
            f'<PROGRAM_NAME>Test</PROGRAM_NAME><PARTICIPANTS>{players}</PARTICIPANTS>{boards}</EVENT>'
            '</USEBIO>\n').encode()


def line(ns: str, ew: str, score: str) -> str:
    return (f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER>"
            f"<SCORE>{score}</SCORE><NS_MATCH_POINTS>0</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>"
            "</TRAVELLER_LINE>")


PAIRS = "1NS 2NS 3NS 1EW 2EW 3EW"
SMALL = event(
    "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + line("1NS", "1EW", "420") + line("2NS", "2EW", "450")
    + line("3NS", "3EW", "A6040") + "</BOARD>"
    + "<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>" + line("1NS", "2EW", "-100") + line("2NS", "3EW", "-100")
    + line("3NS", "1EW", "110") + "</BOARD>", PAIRS)


def test_a_small_mitchell_with_an_artificial_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Board 1: 420 and 450 compared (1 result each side beaten), factored from 2 to 3 (Neuberg); A6040 is 60%
    and 40% of the top 4. Board 2: two -100 tie, 110 beats both."""
    out = rescored(capsys, tmp_path, SMALL, "--preset", "compscore3")
    got = {(w, tag): text for w, tag, text in computed(out)}
    # Neuberg (M+1)E/N - 1 with E 3, N 2: 0 -> 0.5, 2 -> 3.5; the top is 4.
    assert [got["board 1 line 0", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["0.5", "3.5"]
    assert [got["board 1 line 1", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["3.5", "0.5"]
    assert [got["board 1 line 2", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["2.4", "1.6"]
    assert [got["board 2 line 0", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["1", "3"]
    assert [got["board 2 line 2", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["4", "0"]
    # 3NS: 2.4 + 4 of 8; 1NS 0.5 + 1 = 1.5 (18.75%); the NS field ranked apart from the EW field.
    assert (got["pair 3NS", "TOTAL_SCORE"], got["pair 3NS", "PERCENTAGE"], got["pair 3NS", "PLACE"]) == \
        ("6.40", "80.00", "1")
    assert (got["pair 1NS", "TOTAL_SCORE"], got["pair 1NS", "PERCENTAGE"], got["pair 1NS", "PLACE"]) == \
        ("1.50", "18.75", "3")
    assert got["pair 3EW", "PLACE"] == "1"  # 3.5 + 3
    code, text, _ = score(capsys, tmp_path / "in.xml", "--preset", "compscore3")
    assert code == 0 and "Ann 3NS" in text and "60%/40%" in text


def test_a_line_that_kept_its_score_but_was_given_an_artificial_scores_points(capsys: pytest.CaptureFixture[str],
                                                                             tmp_path: Path) -> None:
    """Compscore3 may keep a played SCORE on a line it adjusted and write the artificial score's points: on a board of
    every line, no artificial SCORE, and points with tenths, the line written as two whole numbers adding up to the
    top is that artificial score (--preset compscore3), the others compared among themselves and factored."""
    def written(ns: str, ew: str, score: str, ns_mp: str, ew_mp: str) -> str:
        return line(ns, ew, score).replace("<NS_MATCH_POINTS>0<", f"<NS_MATCH_POINTS>{ns_mp}<").replace(
            "<EW_MATCH_POINTS>0<", f"<EW_MATCH_POINTS>{ew_mp}<")
    data = event("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + written("1NS", "1EW", "110", "3", "1")
                 + written("2NS", "2EW", "420", "0.5", "3.5") + written("3NS", "3EW", "450", "3.5", "0.5") + "</BOARD>"
                 + "<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>" + written("1NS", "2EW", "-100", "1", "3")
                 + written("2NS", "3EW", "-100", "1", "3") + written("3NS", "1EW", "110", "4", "0") + "</BOARD>",
                 PAIRS)
    got = {(w, tag): text for w, tag, text in computed(rescored(capsys, tmp_path, data, "--preset", "compscore3"))}
    assert [got["board 1 line 0", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["3", "1"]  # A7525
    assert [got["board 1 line 1", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["0.5", "3.5"]
    assert got["pair 1NS", "TOTAL_SCORE"] == "4.00"  # 3 + 1
    # By its score alone (the default), the 110 is a played result: 420 and 450 beat it.
    got = {(w, tag): text for w, tag, text in computed(rescored(capsys, tmp_path, data))}
    assert [got["board 1 line 0", t] for t in ("NS_MATCH_POINTS", "EW_MATCH_POINTS")] == ["0.00", "4.00"]


def test_usebio_is_known_by_its_content_not_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert is_usebio(SMALL) and is_usebio(b"\xef\xbb\xbf<!-- c --><!DOCTYPE USEBIO SYSTEM 'x.dtd'>\n<USEBIO/>")
    assert not is_usebio(b'[Event "Club"]\n') and not is_usebio(b"<USEBIOX/>") and not is_usebio(b"<X><USEBIO/></X>")
    named = tmp_path / "results.pbn"
    named.write_bytes(SMALL)
    code, out, err = score(capsys, named, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["summary"]["event_type"] == "MP_PAIRS"
    assert {r["pair"] for r in doc["ranking"] if r["rank"] == "1"} == {"NS 3", "EW 3"}


BAD = {
    "malformed": (b'<?xml version="1.0"?><USEBIO><EVENT EVENT_TYPE="MP_PAIRS"></USEBIO>', "not well-formed XML"),
    "entity": (b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaa">]><USEBIO>&a;</USEBIO>',
               "declares the entity 'a'"),
    "external entity": (b'<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                        b'<USEBIO>&x;</USEBIO>', "declares the entity 'x'"),
    "no event": (b"<USEBIO Version='1.2'><CLUB/></USEBIO>", "no <EVENT>"),
    "no event type": (b"<USEBIO><EVENT><BOARD/></EVENT></USEBIO>", "no EVENT_TYPE"),
    "no board": (event(""), "no <BOARD> with a <TRAVELLER_LINE>"),
    "no score": (event("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1NS</NS_PAIR_NUMBER>"
                       "<EW_PAIR_NUMBER>1EW</EW_PAIR_NUMBER></TRAVELLER_LINE></BOARD>", PAIRS),
                 "board 1 traveller line 1: no <SCORE>"),
    "bad score": (event("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + line("1NS", "1EW", "4S=") + "</BOARD>", PAIRS),
                  "SCORE '4S=' is neither"),
    "no board number": (event("<BOARD>" + line("1NS", "1EW", "420") + "</BOARD>", PAIRS), "no <BOARD_NUMBER>"),
    "unknown pair": (event("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + line("1NS", "9EW", "420") + "</BOARD>", PAIRS),
                     "pair 9EW is not in PARTICIPANTS"),
    "artificial at IMPs": (event("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + line("1NS", "1EW", "A6535")
                                 .replace("MATCH", "CROSS_IMP") + "</BOARD>", PAIRS, "CROSS_IMP"),
                           "no IMP equivalent"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_usebio_file_is_one_line_and_exit_2(case: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    data, why = BAD[case]
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    code, out, err = score(capsys, path)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and why in err and "Traceback" not in err, err


def test_options_of_the_other_format_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    usebio, pbn = tmp_path / "e.xml", tmp_path / "s.pbn"
    usebio.write_bytes(SMALL)
    pbn.write_text('[Event "x"]\n[Board "1"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n')
    for args, why in (((usebio, "--pbn", tmp_path / "o.pbn"), "--pbn writes a PBN file back"),
                      ((pbn, "--usebio", tmp_path / "o.xml"), "--usebio writes a USEBIO file back"),
                      ((usebio, "--method", "butler"), "scored by --method mp or mp-acbl, not butler"),
                      ((usebio, "--usebio", usebio), "is the input file")):
        code, _, err = score(capsys, *args)
        assert code == 2 and why in err and err.count("\n") == 1, err


def test_the_reader_keeps_names_numbers_and_artificial_scores() -> None:
    parsed = parse_usebio(SMALL)
    assert (parsed.method, parsed.mitchell, len(parsed.boards)) == ("mp", True, 2)
    first = parsed.participants[0]
    assert (first.number, first.direction, first.names, first.members) == ("1NS", "NS", "Ann 1NS", ("100",))
    assert parsed.boards[0].lines[2].artificial == (60, 40) and parsed.boards[0].lines[2].score is None
    with pytest.raises(UsebioError, match="not a USEBIO file"):
        parse_usebio(b"<OTHER/>")


@needs_oracles
@needs_usebio
@pytest.mark.parametrize("preset", ["compscore3", "default"])
@pytest.mark.parametrize("name", [*EXACT, "compscore3-mp_pairs_mitchell_adjusted.xml"])
def test_usebio_out_passes_the_schema(name: str, preset: str, capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    """What --usebio OUT writes is USEBIO 1.2 as tenace's schema (usebio.schema, branch usebio-out) says, with
    Compscore3's figures or tenace's own (2-decimal board MPs)."""
    out = rescored(capsys, tmp_path, wiped((USEBIO / name).read_bytes()), "--preset", preset)
    assert problems(parse(out, name)) == []
    assert computed(out) != computed(wiped((USEBIO / name).read_bytes()))  # the figures were written in


MISSING = event(
    "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>" + line("1NS", "1EW", "400") + line("2NS", "2EW", "450")
    + line("3NS", "3EW", "420") + "</BOARD>"
    + "<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>" + line("1NS", "2EW", "-100") + line("2NS", "3EW", "110") + "</BOARD>",
    PAIRS)


@pytest.mark.parametrize(("preset", "board2", "totals"), [
    # Compscore3: board 2 (a table missing) published on its own top of 2, factored to E = 3 only in the totals
    # (Neuberg: 0 -> 0.5, 2 -> 3.5 of 4); 3NS and 1EW, who missed it, brought to the session's two boards.
    ("compscore3", ["0", "2", "2", "0"],
     {"1NS": ("0.50", "6.25", "3"), "2NS": ("7.50", "93.75", "1"), "3NS": ("4.00", "50.00", "2"),
      "1EW": ("8.00", "100.00", "1"), "2EW": ("3.50", "43.75", "2"), "3EW": ("2.50", "31.25", "3")}),
    # tenace's own: board 2 published factored, totals as scored.
    ("default", ["0.50", "3.50", "3.50", "0.50"],
     {"1NS": ("0.50", "6.25", "3"), "3NS": ("2.00", "50.00", "2"), "1EW": ("4.00", "100.00", "1")}),
])
def test_a_board_with_a_missing_table(preset: str, board2: list[str], totals: dict[str, tuple[str, str, str]],
                                      capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    got = {(w, tag): text for w, tag, text in computed(rescored(capsys, tmp_path, MISSING, "--preset", preset))}
    assert [got[f"board 2 line {i}", f"{side}_MATCH_POINTS"] for i in (0, 1) for side in ("NS", "EW")] == board2
    for pair, figures in totals.items():
        assert tuple(got[f"pair {pair}", tag] for tag in PAIR_FIGURES) == figures, pair


# --- USEBIO from other programs: USEBIO's own PAIRS type, pair numbers "1 NS", TOTAL_SCORE as the percentage ---

def other_writer(event_type: str = "PAIRS", method: str = "", traveller_numbers: str = "{n} {d}") -> bytes:
    """A Mitchell of 2 tables and 2 boards as scorer-to-usebio writes one: EVENT_TYPE PAIRS, PAIR_NUMBER "1 NS",
    TOTAL_SCORE holding the pair's percentage (as PERCENTAGE does), the lines' numbers as `traveller_numbers`."""
    def pair(n: int, d: str, percent: str, place: int) -> str:
        return (f"<PAIR><PAIR_NUMBER>{n} {d}</PAIR_NUMBER><DIRECTION>{d}</DIRECTION><BOARDS_PLAYED>2</BOARDS_PLAYED>"
                f"<PLAYER><PLAYER_NAME>P{n}{d}a</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>P{n}{d}b</PLAYER_NAME>"
                f"</PLAYER><PLACE>{place}</PLACE><TOTAL_SCORE>{percent}</TOTAL_SCORE><PERCENTAGE>{percent}</PERCENTAGE>"
                "</PAIR>")

    def row(ns: int, ew: int, score: str, ns_mp: str, ew_mp: str) -> str:
        ns_id = traveller_numbers.format(n=ns, d="NS")
        ew_id = traveller_numbers.format(n=ew, d="EW")
        return (f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns_id}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew_id}</EW_PAIR_NUMBER>"
                f"<CONTRACT>4 S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>{score}</SCORE>"
                f"<NS_MATCH_POINTS>{ns_mp}</NS_MATCH_POINTS><EW_MATCH_POINTS>{ew_mp}</EW_MATCH_POINTS>"
                "</TRAVELLER_LINE>")
    scoring = f"<BOARD_SCORING_METHOD>{method}</BOARD_SCORING_METHOD>" if method else ""
    # Board 1: 420 beats 170; board 2: -100 twice, a tie. 1 NS 2 + 1 of 4 MPs (75%), 2 NS 0 + 1 (25%).
    return (f'<?xml version="1.0"?>\n<USEBIO Version="1.2"><CLUB><CLUB_NAME>C</CLUB_NAME></CLUB>'
            f'<EVENT EVENT_TYPE="{event_type}"><PROGRAM_NAME>Scorer</PROGRAM_NAME><WINNER_TYPE>2</WINNER_TYPE>'
            f'{scoring}<PARTICIPANTS>{pair(1, "NS", "75.00", 1)}{pair(2, "NS", "25.00", 2)}'
            f'{pair(1, "EW", "25.00", 2)}{pair(2, "EW", "75.00", 1)}</PARTICIPANTS>'
            f'<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>{row(1, 1, "420", "2", "0")}{row(2, 2, "170", "0", "2")}</BOARD>'
            f'<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>{row(1, 2, "-100", "1", "1")}{row(2, 1, "-100", "1", "1")}</BOARD>'
            '</EVENT></USEBIO>\n').encode()


@pytest.mark.parametrize("numbers", ["{n} {d}", "{n}{d}", "{d} {n}", "{n}"])
@pytest.mark.parametrize("method", ["", "MATCH_POINTS"])
def test_a_pairs_event_from_another_program_is_scored_by_its_evident_method(
        numbers: str, method: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """EVENT_TYPE PAIRS with its method in BOARD_SCORING_METHOD, or none and matchpoints on the lines; pair numbers
    "1 NS", "1NS", "NS 1", or "1" sitting NS in a Mitchell, all pair 1 of the NS field; TOTAL_SCORE written back as
    the percentage it holds. The file rescored is itself again."""
    data = other_writer(method=method, traveller_numbers=numbers)
    source = tmp_path / "in.xml"
    source.write_bytes(data)
    code, out, err = score(capsys, source, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["method"] == "mp" and doc["summary"]["event_type"] == "PAIRS"
    ranking = {line["pair"]: (line["percent"], line["rank"], line["names"]) for line in doc["ranking"]}
    assert ranking == {"NS 1": (75.0, "1", "P1NSa - P1NSb"), "NS 2": (25.0, "2", "P2NSa - P2NSb"),
                       "EW 2": (75.0, "1", "P2EWa - P2EWb"), "EW 1": (25.0, "2", "P1EWa - P1EWb")}
    want, got = computed(data), computed(rescored(capsys, tmp_path, data))
    assert [(w, t, Decimal(v)) for w, t, v in got] == [(w, t, Decimal(v)) for w, t, v in want]
    assert ("pair 1 NS", "TOTAL_SCORE", "75.00") in got  # the percentage, as the file holds it
    wiped_out = {(w, tag): text for w, tag, text in computed(rescored(capsys, tmp_path, wiped(data)))}
    # A wiped TOTAL_SCORE (0) no longer says it holds the percentage: the MPs go there.
    assert [wiped_out["pair 1 NS", t] for t in PAIR_FIGURES] == ["3.00", "75.00", "1"]


@pytest.mark.parametrize(("change", "message"), [
    ({"event_type": "TEAMS"}, "EVENT_TYPE 'TEAMS' is not scored by tenace score (it scores MP_PAIRS, "
                              "BUTLER_PAIRS, CROSS_IMP, PAIRS)"),
    ({"event_type": "INDIVIDUAL"}, "EVENT_TYPE 'INDIVIDUAL' is not scored"),
    ({"method": "AGGREGATE"}, "BOARD_SCORING_METHOD 'AGGREGATE' is not scored by tenace score (it scores "
                              "MATCH_POINTS, BUTLER_IMPS, CROSS_IMPS)"),
])
def test_what_another_program_writes_that_cannot_be_scored_is_refused_in_one_line(
        change: dict[str, str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "in.xml"
    source.write_bytes(other_writer(**change))
    code, out, err = score(capsys, source)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
