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
    return main(["hub", "new", "--sim", "s1", "--name", "S", "--heat", "2026-04-02T19:30+01:00",
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
    assert main(["hub", "club", "add", "--sim", "s1", "--club", "leeds",
                 "--hub", "https://hub.example.org/"]) == 0
    out = capsys.readouterr().out
    assert "its address (tenace event link-sim --sim): https://hub.example.org/sims/s1/clubs/leeds" in out


@pytest.mark.parametrize(("option", "value", "says"), [("--port", "99999", "--port is 1 to 65535, not 99999"),
                                                       ("--port", "0", "--port is 1 to 65535, not 0"),
                                                       ("--workers", "0", "--workers is 1 to 64, not 0")])
def test_serve_refuses_an_absurd_option_in_one_line(hub_db: str, option: str, value: str, says: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hub", "serve", option, value]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"tenace hub: {says}"


def test_the_database_url_from_a_file_or_the_environment(hub_db: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert _new(hub_db, tmp_path, "mp") == 0  # from TENACE_HUB_DB
    monkeypatch.delenv("TENACE_HUB_DB")
    url = tmp_path / "hub.url"
    url.write_text(hub_db + "\n")
    assert main(["hub", "club", "add", "--db-file", str(url), "--sim", "s1", "--club", "leeds"]) == 0
    assert "its token" in capsys.readouterr().out


def test_a_password_on_the_command_line_is_warned_of_once(hub_db: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert _new(hub_db, tmp_path, "mp") == 0
    capsys.readouterr()
    assert main(["hub", "release", "--db", hub_db, "--sim", "s1"]) == 0
    err = capsys.readouterr().err
    assert err == ("tenace hub: warning: --db shows the database's password to every user of this machine (ps); "
                   "give --db-file PATH or $TENACE_HUB_DB instead\n")
    help_text = _help(capsys, "release")
    assert "--db-file PATH" in help_text and "shown by `ps` to every user" in help_text


def _help(capsys: pytest.CaptureFixture[str], action: str) -> str:
    with pytest.raises(SystemExit):
        main(["hub", action, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(("argv", "says"), [
    ([], "give the database's URL: --db-file PATH (its first line), or $TENACE_HUB_DB"),
    (["--db-file", "{tmp}/none.url"], "cannot read the database's URL from --db-file {tmp}/none.url: No such file"),
    (["--db-file", "{tmp}"], "cannot read the database's URL from --db-file {tmp}: Is a directory"),
    (["--db-file", "{tmp}/empty.url"], "cannot read the database's URL from --db-file {tmp}/empty.url: not a line"),
    (["--db-file", "{tmp}/empty.url", "--db", "postgresql://x/y"], "--db-file or --db, not both"),
    (["--db", ""], "give the database's URL"),
    (["--db", "postgresql://nobody@127.0.0.1:1/none"], "cannot reach the database"),
])
def test_a_wrong_database_option_is_one_line(argv: list[str], says: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TENACE_HUB_DB", raising=False)
    (tmp_path / "empty.url").write_text("\n\n")
    args = [a.format(tmp=tmp_path) for a in argv]
    for action in (["release", "--sim", "s1"], ["serve"]):
        assert main(["hub", *action, *args]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says.format(tmp=tmp_path) in err and "Traceback" not in err, err
