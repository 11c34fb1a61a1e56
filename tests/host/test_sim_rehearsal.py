"""`tenace sim --event`: the director's own event rehearsed on simulated terminals, in a copy of its file."""

from __future__ import annotations

import hashlib
import runpy
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.firmware_build import SIM_DIR
from tenace.movement import howell, mitchell
from tenace.movement.individual import individual
from tenace.store import connect, create_event, current_results
from tenace.store.hand_records import keep_hand_records
from tenace.store.names import Member, keep_roster, set_pair_players


def director_event(path: Path) -> Path:
    """A club's own event as its director set it up: a 3-table Mitchell and a 3-table Howell (sections A, B), the
    roster and every pair's players, and section A's deals."""
    with closing(create_event(path, name="Club night", sections={"A": mitchell(3, 2), "B": howell(3, 3, 2)})) as conn:
        keep_roster(conn, [Member(n, f"Member {n}") for n in range(1, 25)])
        number = 1
        for section, movement in (("A", mitchell(3, 2)), ("B", howell(3, 3, 2))):
            for field, pair in movement.pairs():
                set_pair_players(conn, section, pair, field, (number, number + 1), who="TD")
                number += 2
        deal = runpy.run_path(str(SIM_DIR / "deals.py"))["deal"]
        keep_hand_records(conn, "A", {b: deal(b) for b in range(1, 7)})
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
def test_a_rehearsal_plays_the_directors_event_into_a_copy_and_leaves_the_file_untouched(tmp_path: Path) -> None:
    event = director_event(tmp_path / "club.sqlite")
    before = digest(event)
    proc = subprocess.run([sys.executable, "-m", "tenace", "sim", "--event", str(event), "--seed", "5"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    copy = tmp_path / "club-rehearsal.sqlite"
    assert lines[0] == f"Rehearsal of {event} in {copy} (the event file itself is left untouched)"
    assert lines[1].startswith("Simulated session: section A: Mitchell, 3 tables, 3 rounds of 2 boards; "
                               "section B: Howell (first 2 of 5 rounds)")
    # 3 tables x 3 rounds x 2 boards in A, 3 tables x 2 rounds x 3 boards in B.
    assert lines[-1].startswith("accepted=36 stored=36 lost=0 doubled=0 "), lines[-1]
    assert "Member 1 - Member 2" in proc.stdout  # the ranking with the director's names
    assert digest(event) == before
    with closing(connect(event)) as conn:
        assert current_results(conn) == []
    with closing(connect(copy)) as conn:
        results = current_results(conn)
    assert len(results) == 36 and {v.section for v in results} == {"A", "B"}
    # Section A's terminals had the director's deals with their round plans: every lead is a card the opening
    # leader (declarer's left-hand opponent) holds in the deal of that board.
    deal = runpy.run_path(str(SIM_DIR / "deals.py"))["deal"]
    played = [v for v in results if v.section == "A" and v.declarer is not None]
    assert played
    for v in played:
        assert v.lead is not None
        hands = deal(v.board)[2:].split()  # N E S W, suits S.H.D.C
        hand = hands[("NESW".index(v.declarer) + 1) % 4].split(".")
        assert v.lead[1] in hand["SHDC".index(v.lead[0])], (v.board, v.declarer, v.lead)  # suit, rank: "D9"


@pytest.mark.parametrize(("setup", "extra", "message"), [
    ("none", [], "--event {event}: no such event file"),
    ("text", [], "--event {event}: "),
    ("event", ["--tables", "5"], "--event plays the event as it was set up: give no --tables"),
    ("event", ["--change"], "--event plays the event as it was set up: give no --change"),
    ("played", [], "--event {event} holds 1 results already: a rehearsal plays an event before its evening"),
    ("individual", [], "--event {event}: section A is an individual; the simulated players play Mitchells"),
    ("copy exists", [], "{copy} exists already (an earlier rehearsal?): remove it or give --db NEW.sqlite"),
])
def test_what_cannot_be_rehearsed_is_one_line_and_leaves_no_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, extra: list[str], message: str) -> None:
    event = tmp_path / "club.sqlite"
    copy = tmp_path / "club-rehearsal.sqlite"
    if setup == "text":
        event.write_text("not an event\n", encoding="utf-8")
    elif setup == "individual":
        create_event(event, name="Individual", sections={"A": individual(3, 2)}).close()
    elif setup != "none":
        director_event(event)
    if setup == "played":
        assert tenace(capsys, "correct", str(event), "--section", "A", "--table", "1", "--round", "1", "--board",
                      "1", "--contract", "3NT", "--by", "N", "--tricks", "9", "--why", "test")[0] == 0
    if setup == "copy exists":
        copy.write_text("", encoding="utf-8")
    before = digest(event) if event.exists() else None
    code, out, err = tenace(capsys, "sim", "--event", str(event), *extra)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert message.format(event=event, copy=copy) in err
    assert copy.exists() == (setup == "copy exists")
    assert (digest(event) if event.exists() else None) == before
