"""The organiser's actions on the hub: define a sim (heats, boards, hand records, scoring), add and revoke clubs,
release the travellers, and the console's logins. Each is one transaction; a mistake is a UsageError."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

from tenace.errors import UsageError
from tenace.hub import queries
from tenace.hub.ingest import token_hash
from tenace.pbn.reader import PbnError, read_pbn
from tenace.pbn.results import PbnResultError, board_tag

SCORINGS = ("mp", "cross-imps", "butler")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True)
class Deal:
    board: int
    dealer: str
    vulnerable: str
    deal: str  # PBN's [Deal] value


def hand_records(path: Path, boards: int) -> list[Deal]:
    """Boards 1..`boards` of a PBN file of hand records (each with its Deal tag)."""
    try:
        games = read_pbn(path)
    except PbnError as e:
        raise UsageError(f"{path}: {e}") from None
    found: dict[int, Deal] = {}
    for game in games:
        try:
            board = board_tag(game)
        except PbnResultError as e:
            raise UsageError(f"{path}: {e}") from None
        if game.tag("Deal") and board <= boards:
            found.setdefault(board, Deal(board, game.tag("Dealer", "N"), game.tag("Vulnerable", "None"),
                                         game.tag("Deal")))
    missing = [b for b in range(1, boards + 1) if b not in found]
    if missing:
        raise UsageError(f"{path} has no deal for board{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(map(str, missing[:10]))}")
    return [found[b] for b in range(1, boards + 1)]


def _check_id(what: str, value: str) -> None:
    if not _ID.match(value):
        raise UsageError(f"a {what} id is 1 to 64 letters, digits, - or _, not {value!r}")


def new_sim(conn: psycopg.Connection[Any], sim: str, name: str, heats: list[datetime], boards: int,
            deals: list[Deal], scoring: str) -> None:
    _check_id("sim", sim)
    if scoring not in SCORINGS:
        raise UsageError(f"the scoring is one of {', '.join(SCORINGS)}, not {scoring!r}")
    if not heats:
        raise UsageError("a sim has at least one heat (its start time)")
    if not 1 <= boards <= 9999:
        raise UsageError(f"a sim has 1 to 9999 boards, not {boards}")
    with conn.transaction():
        if queries.sim_exists(conn, sim):
            raise UsageError(f"there is a sim {sim!r} already")
        queries.insert_sim(conn, sim, name, scoring, boards, sorted(heats),
                           [(d.board, d.dealer, d.vulnerable, d.deal) for d in deals])


def _sim(conn: psycopg.Connection[Any], sim: str) -> tuple[Any, ...]:
    row = queries.sim_row(conn, sim)
    if row is None:
        raise UsageError(f"there is no sim {sim!r}")
    return tuple(row)


def add_club(conn: psycopg.Connection[Any], sim: str, club: str, name: str) -> str:
    """Add a club; its token, which the hub keeps only hashed (shown this once)."""
    _check_id("club", club)
    token = secrets.token_urlsafe(32)
    with conn.transaction():
        _sim(conn, sim)
        if queries.club_exists(conn, sim, club):
            raise UsageError(f"sim {sim!r} has a club {club!r} already (revoke it and add it under another id)")
        queries.insert_club(conn, sim, club, name, token_hash(token))
    return token


def revoke_club(conn: psycopg.Connection[Any], sim: str, club: str) -> None:
    with conn.transaction():
        if not queries.revoke_club(conn, sim, club):
            _sim(conn, sim)
            raise UsageError(f"sim {sim!r} has no club {club!r} that is not revoked already")


def release(conn: psycopg.Connection[Any], sim: str, now: datetime | None = None) -> None:
    """Lift the embargo: the travellers, hands and frequencies show, and the exports are made. Not before the last
    heat has started."""
    with conn.transaction():
        _, released = _sim(conn, sim)
        if released is not None:
            raise UsageError(f"sim {sim!r} was released at {released:%Y-%m-%d %H:%M}")
        last, at = queries.last_heat_and_now(conn, sim, now)
        if last is not None and at < last:
            raise UsageError(f"the last heat starts at {last:%Y-%m-%d %H:%M}: release after it")
        queries.mark_released(conn, sim, now)
        queries.notify(conn, f"pushed {sim}")


def password_hash(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    try:
        _, salt, _ = stored.split("$")
        return hmac.compare_digest(password_hash(password, bytes.fromhex(salt)), stored)
    except ValueError:
        return False


def set_organiser(conn: psycopg.Connection[Any], login: str, password: str) -> None:
    """Add an organiser's login to the console, or change its password (its sessions end)."""
    if not login.strip() or len(password) < 8:
        raise UsageError("an organiser has a login and a password of 8 characters or more")
    with conn.transaction():
        queries.set_organiser(conn, login, password_hash(password))
