"""`tenace demo`: the README's main command plays a session whose scores agree with the rules."""

from __future__ import annotations

import re

import pytest

from tenace.cli import main
from tenace_rules.board import vulnerability
from tenace_rules.contract import parse_contract
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks

LINE = re.compile(r"table +(\d+): (\S+) +by (\w) +(\S+) +NS +([+-]\d+)")


def test_demo_prints_every_table_of_every_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tables", "5", "--boards", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.count("Board ") == 3 and out.count("table ") == 15
    board = 0
    checked = 0
    for line in out.splitlines():
        if line.startswith("Board "):
            board = int(line.split()[1])
        elif m := LINE.search(line):
            contract = parse_contract(m[2])
            score = ns_score(contract, m[3], vulnerability(board), parse_tricks(contract, m[4]))
            assert score == int(m[5]), line
            checked += 1
    assert checked >= 12  # a few boards may be passed out
