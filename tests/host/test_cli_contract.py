"""`tenace contract`: single cases, --batch, and refusals with a message and exit code 2 (never a traceback)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from tenace.cli import main
from tenace.commands.contract import run_batch

from law77_expected import DOUBLING_NAMES, all_cases, expected_score

SEATS_VUL = {"none": "", "ns": "NS", "ew": "EW", "both": "NESW"}


def tenace(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tenace.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_the_issue_example_derives_board_7_vulnerability() -> None:
    proc = tenace("contract", "4SX", "N", "11", "--board", "7")
    assert proc.returncode == 0, proc.stderr
    # Board 7: South deals, both vulnerable; 4SX+1 vulnerable = 240 + 500 + 50 + 200.
    assert proc.stdout.startswith("NS +990 ")
    assert "board 7: dealer S, vulnerable both" in proc.stdout


@pytest.mark.parametrize(("args", "score"), [
    (["3nt", "w", "-2", "--vul", "ew"], "NS +200"),
    (["3N", "E", "9"], "NS -400"),
    (["4♠x", "s", "=", "--board", "1"], "NS +590"),
    (["pass", "--board", "3"], "NS 0"),
    (["7NTXX", "N", "13", "--vul", "both"], "NS +2980"),
])
def test_single_cases(args: list[str], score: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["contract", *args]) == 0
    assert capsys.readouterr().out.startswith(score + " ")


@pytest.mark.parametrize(("args", "message"), [
    (["8S", "N", "7"], "level 1 to 7"),
    (["4S", "N", "14"], "14 tricks is impossible"),
    (["4S", "N", "+4"], "at most +3"),
    (["2H", "E", "-11"], "at most -8"),
    (["4S", "Q", "10"], "declarer must be N, E, S or W"),
    (["4S", "N"], "give the declarer and the tricks"),
    (["4S", "N", "10", "--vul", "red"], "none, ns, ew or both"),
    (["4S", "N", "10", "--board", "0"], "board number"),
    (["pass", "N", "7"], "passed-out board takes no declarer"),
    ([], "give a contract"),
])
def test_bad_input_is_refused_with_a_reason(args: list[str], message: str) -> None:
    proc = tenace("contract", *args)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_argument_errors_exit_2_too() -> None:
    proc = tenace("contract", "4S", "N", "10", "--board", "seven")
    assert proc.returncode == 2 and "invalid int value" in proc.stderr
    proc = tenace("contract", "4S", "N", "10", "--board", "7", "--vul", "ns")
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


def test_help_documents_the_batch_format() -> None:
    proc = tenace("contract", "--help")
    assert proc.returncode == 0
    assert "--batch" in proc.stdout and "<contract> <declarer> <tricks> <vul" in proc.stdout


def test_batch_scores_every_law77_case_for_every_seat() -> None:
    lines, want = [], []
    for level, strain, doubling, vulnerable, tricks in all_cases():
        for seat in "NESW":
            # A vulnerability under which this seat's side has the case's vulnerability.
            vul = next(v for v, seats in SEATS_VUL.items() if (seat in seats) == vulnerable)
            lines.append(f"{level}{strain}{DOUBLING_NAMES[doubling]} {seat} {tricks} {vul}\n")
            score = expected_score(level, strain, doubling, vulnerable, tricks)
            want.append(score if seat in "NS" else -score)
    lines.append("pass\n")
    want.append(0)
    out = io.StringIO()
    assert run_batch(io.StringIO("".join(lines)), out) == 0
    assert [int(x) for x in out.getvalue().split()] == want
    assert len(want) == 2940 * 4 + 1


def test_batch_stops_at_the_first_malformed_line_naming_it() -> None:
    proc = tenace("contract", "--batch", stdin="4SX N 11 both\n3NT E 9 none\npass\n4S N 14 none\n1C N = ns\n")
    assert proc.returncode == 2
    assert proc.stdout.split() == ["990", "-400", "0"]
    assert "line 4 '4S N 14 none': 14 tricks is impossible" in proc.stderr


@pytest.mark.parametrize(("line", "message"), [
    ("4S N 10", "expected 4 fields"),
    ("4S N 10 none extra", "expected 4 fields"),
    ("4S N 10 red", "none, ns, ew or both"),
    ("4Z N 10 none", "no strain"),
    ("pass none both", "at most a vulnerability"),
])
def test_batch_malformed_lines(line: str, message: str) -> None:
    proc = tenace("contract", "--batch", stdin=f"1NT N 7 none\n{line}\n")
    assert proc.returncode == 2
    assert proc.stdout == "90\n"
    assert "line 2" in proc.stderr and message in proc.stderr and "Traceback" not in proc.stderr


def test_batch_takes_no_other_arguments() -> None:
    proc = tenace("contract", "4S", "--batch")
    assert proc.returncode == 2 and "--batch reads everything from standard input" in proc.stderr
