"""`tenace hub new` defines a sim scored by matchpoints, cross-IMPs or Butler; `tenace hub club add` prints
the club's token and the address the club gives to `tenace event link-sim --sim`."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tenace.cli import main

from hub_sim import write_hand_records


def _new(hub_db: str, tmp_path: Path, scoring: str) -> int:
    write_hand_records(tmp_path / "hands.pbn", 4)
    return main(["hub", "new", "--db", hub_db, "--sim", "s1", "--name", "S", "--heat", "2026-04-02T19:30+01:00",
                 "--boards", "4", "--hands", str(tmp_path / "hands.pbn"), "--scoring", scoring])


@pytest.mark.parametrize("scoring", ["cross-imps", "butler"])
def test_an_imp_scoring_is_accepted(hub_db: str, tmp_path: Path, scoring: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(hub_db, tmp_path, scoring) == 0
    assert capsys.readouterr().err == ""
    with psycopg.connect(hub_db) as conn:
        row = conn.execute("SELECT scoring FROM sims WHERE id = 's1'").fetchone()
    assert row is not None and row[0] == scoring
    assert _new(hub_db, tmp_path, scoring) == 2  # the same sim again: one line
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "there is a sim 's1' already" in err and "Traceback" not in err


def test_club_add_prints_the_address_for_link_sim(hub_db: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(hub_db, tmp_path, "mp") == 0
    capsys.readouterr()
    assert main(["hub", "club", "add", "--db", hub_db, "--sim", "s1", "--club", "leeds",
                 "--hub", "https://hub.example.org/"]) == 0
    out = capsys.readouterr().out
    assert "its address (tenace event link-sim --sim): https://hub.example.org/sims/s1/clubs/leeds" in out


@pytest.mark.parametrize(("option", "value", "says"), [("--port", "99999", "--port is 1 to 65535, not 99999"),
                                                       ("--port", "0", "--port is 1 to 65535, not 0"),
                                                       ("--workers", "0", "--workers is 1 to 64, not 0")])
def test_serve_refuses_an_absurd_option_in_one_line(hub_db: str, option: str, value: str, says: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "serve", "--db", hub_db, option, value]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"tenace hub: {says}"
