"""`tenace demo`, the README's main command: a Mitchell session whose scores and ranking agree with the rules."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from tenace.cli import main
from tenace.scoring.imps import imps
from tenace.simulation.session.demo import play_session
from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks

TRAVELLER = re.compile(r"table +(\d+) .* (\S+) +by (\w) +(\S+) +NS +([+-]\d+)")
# Pairs are named as directors write them: "NS 3", "EW 3" (one section, so no section letter).
RANK = re.compile(r"^ +(\d+=?) +((?:NS|EW) \d+) +([\d.]+) MP +([\d.]+)%$")


def test_every_pair_is_ranked_once_and_each_field_averages_50_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables", "5", "--boards-per-round", "2", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "5 tables, Mitchell, 10 boards, 50 results" in out
    ranked = [RANK.match(line) for line in out.splitlines() if RANK.match(line)]
    pairs = [m[2] for m in ranked if m]
    assert sorted(pairs) == sorted([f"NS {n}" for n in range(1, 6)] + [f"EW {n}" for n in range(1, 6)])
    for direction in ("NS", "EW"):
        percents = [Decimal(m[4]) for m in ranked if m and m[2].startswith(direction)]
        assert abs(sum(percents) / len(percents) - 50) < Decimal("0.01")


def test_travellers_show_law77_scores(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables", "3", "--boards-per-round", "2", "--travellers"]) == 0
    board = 0
    checked = 0
    for line in capsys.readouterr().out.splitlines():
        if line.startswith("Board "):
            board = int(line.split()[1])
        elif (m := TRAVELLER.search(line)) and board:
            contract = parse_contract(m[2])
            assert ns_score(contract, m[3], vulnerability(board), parse_tricks(contract, m[4])) == int(m[5]), line
            checked += 1
    assert checked >= 15  # 3 tables x 6 boards, a few may be passed out


def test_the_same_seed_plays_the_same_session() -> None:
    assert play_session(4, 2, seed=3) == play_session(4, 2, seed=3)
    assert play_session(4, 2, seed=3) != play_session(4, 2, seed=4)


IMP_RANK = re.compile(r"^ +(\d+=?) +((?:NS|EW) \d+) +([+-][\d.]+) IMPs$")
IMP_LINE = re.compile(r"NS +([+-]\d+) +([+-][\d.]+) +([+-][\d.]+)$")


def test_butler_ranks_every_pair_once_best_first_and_the_imps_balance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables", "5", "--boards-per-round", "2", "--seed", "7", "--scoring", "butler"]) == 0
    ranked = [m for line in capsys.readouterr().out.splitlines() if (m := IMP_RANK.match(line))]
    assert sorted(m[2] for m in ranked) == sorted([f"NS {n}" for n in range(1, 6)] + [f"EW {n}" for n in range(1, 6)])
    for direction in ("NS", "EW"):
        field = [Decimal(m[3]) for m in ranked if m[2].startswith(direction)]
        assert field == sorted(field, reverse=True)
    # Every result gives NS what it takes from EW (Law 78B against the datum), so the two fields sum to zero.
    assert sum(Decimal(m[3]) for m in ranked) == 0


def test_butler_travellers_score_each_result_against_the_board_datum(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables", "4", "--boards-per-round", "2", "--scoring", "butler", "--travellers"]) == 0
    datum = None
    checked = 0
    for line in capsys.readouterr().out.splitlines():
        if line.startswith("Board "):
            datum = int(line.rsplit(" ", 1)[1])
        elif (m := IMP_LINE.search(line)) and datum is not None:
            assert Decimal(m[2]) == imps(int(m[1]) - datum) == -Decimal(m[3]), line
            checked += 1
    assert checked == 24  # every result: "4 tables, Mitchell, 8 boards, 24 results"
