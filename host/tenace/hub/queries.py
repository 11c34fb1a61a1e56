"""Every SQL statement of the hub, each a function named for what it asks or does (its tables in hub.schema); the
callers hold the transactions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from tenace.hub.schema import CHANNEL

Conn = psycopg.Connection[Any]
Row = tuple[Any, ...]


def notify(conn: Conn, payload: str) -> None:
    """Tell the hub's listeners (its pages' workers, its scoring workers) on commit: "pushed SIM", "scored SIM..."."""
    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def listen(conn: Conn) -> None:
    """Have `conn` receive the hub's notifications (notify)."""
    conn.execute(f"LISTEN {CHANNEL}")


async def listen_async(conn: psycopg.AsyncConnection[Any]) -> None:
    """Have `conn` (a page worker's, asyncio's) receive the hub's notifications (notify)."""
    await conn.execute(f"LISTEN {CHANNEL}")


# The clubs' pushes (hub.ingest)

def club_by_token(conn: Conn, token_hash: str) -> Row | None:
    """(sim, club, revoked, the sim's boards) of the club with this token's hash."""
    return conn.execute("SELECT c.sim, c.club, c.revoked_at IS NOT NULL, s.boards FROM clubs c JOIN sims s "
                        "ON s.id = c.sim WHERE c.token_hash = %s", (token_hash,)).fetchone()


def count_request(conn: Conn, who: str, window: int) -> int:
    """One more request of `who` in its rate window `window`; the requests it has sent in that window."""
    row = conn.execute(
        "INSERT INTO rate_windows (who, window_start, requests) VALUES (%s, %s, 1) ON CONFLICT (who, window_start)"
        " DO UPDATE SET requests = rate_windows.requests + 1 RETURNING requests", (who, window)).fetchone()
    assert row is not None
    return int(row[0])


def drop_rate_windows_before(conn: Conn, who: str, window: int) -> None:
    conn.execute("DELETE FROM rate_windows WHERE who = %s AND window_start < %s", (who, window))


def count_refusal(conn: Conn, status: int, reason: str, sim: str | None, club: str | None, address: str | None,
                  key: str | None, who: str) -> int:
    """A refusal counted in its client's row of the minute for that status (the latest reason and key kept); the
    refusals that row now counts."""
    row = conn.execute(
        "INSERT INTO refusals (sim, club, address, status, reason, key, who, minute) VALUES "
        "(%s, %s, %s, %s, %s, %s, %s, date_trunc('minute', now())) ON CONFLICT (who, minute, status) DO UPDATE "
        "SET count = refusals.count + 1, at = now(), address = EXCLUDED.address, reason = EXCLUDED.reason, "
        "key = EXCLUDED.key RETURNING count", (sim, club, address, status, reason, key, who)).fetchone()
    assert row is not None
    return int(row[0])


def acked_for_update(conn: Conn, sim: str, club: str) -> int:
    """The club's acknowledged push, its row locked until the transaction ends (one batch of a club at a time)."""
    row = conn.execute("SELECT acked FROM clubs WHERE sim = %s AND club = %s FOR UPDATE", (sim, club)).fetchone()
    return int(row[0]) if row else 0


def stored_pushes(conn: Conn, sim: str, club: str, seqs: Sequence[int], keys: Sequence[str]) -> list[Row]:
    """(seq, key, digest) of the club's stored pushes with one of these numbers or keys."""
    return conn.execute("SELECT seq, key, digest FROM pushes WHERE sim = %s AND club = %s AND (seq = ANY(%s) OR "
                        "key = ANY(%s))", (sim, club, list(seqs), list(keys))).fetchall()


def insert_pushes(conn: Conn, rows: Iterable[tuple[str, str, int, str, str, Jsonb]]) -> None:
    """Pushes stored: (sim, club, seq, key, digest, body)."""
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO pushes (sim, club, seq, key, digest, body) VALUES (%s, %s, %s, %s, %s, %s)",
                        list(rows))


def pushes_after(conn: Conn, sim: str, club: str, seq: int) -> list[Row]:
    """(seq, body) of the club's stored pushes after `seq`, in order."""
    return conn.execute("SELECT seq, body FROM pushes WHERE sim = %s AND club = %s AND seq > %s ORDER BY seq",
                        (sim, club, seq)).fetchall()


def set_acked(conn: Conn, sim: str, club: str, acked: int) -> None:
    conn.execute("UPDATE clubs SET acked = %s WHERE sim = %s AND club = %s", (acked, sim, club))


def upsert_slots(conn: Conn, rows: Sequence[Row]) -> None:
    """Slots written, in order (a later push of the same slot wins): (sim, club, section, table, round, board, seq,
    body, outcome)."""
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO slots (sim, club, section, table_no, round, board, seq, body, outcome) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (sim, club, section, table_no, round, board) "
            "DO UPDATE SET seq = excluded.seq, body = excluded.body, outcome = excluded.outcome", rows)


def upsert_penalties(conn: Conn, rows: Sequence[Row]) -> None:
    """Penalties written, a later one of the same action winning: (sim, club, action, seq, body)."""
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO penalties (sim, club, action, seq, body) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (sim, club, action) DO UPDATE SET seq = excluded.seq, body = excluded.body", rows)


# The organiser's actions (hub.organiser) and console (hub.console)

def sim_row(conn: Conn, sim: str) -> Row | None:
    """(id, released_at) of the sim."""
    return conn.execute("SELECT id, released_at FROM sims WHERE id = %s", (sim,)).fetchone()


def insert_sim(conn: Conn, sim: str, name: str, scoring: str, boards: int, heats: Sequence[datetime],
               deals: Iterable[tuple[int, str, str, str]]) -> None:
    """A new sim: its row, its empty scores, its heats (numbered from 1 in the order given) and its deals (board,
    dealer, vulnerable, PBN deal)."""
    conn.execute("INSERT INTO sims (id, name, scoring, boards) VALUES (%s, %s, %s, %s)", (sim, name, scoring, boards))
    conn.execute("INSERT INTO scores (sim) VALUES (%s)", (sim,))
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO heats (sim, heat, starts_at) VALUES (%s, %s, %s)",
                        [(sim, i, t) for i, t in enumerate(heats, start=1)])
        cur.executemany("INSERT INTO deals (sim, board, dealer, vulnerable, deal) VALUES (%s, %s, %s, %s, %s)",
                        [(sim, *d) for d in deals])


def club_exists(conn: Conn, sim: str, club: str) -> bool:
    return conn.execute("SELECT 1 FROM clubs WHERE sim = %s AND club = %s", (sim, club)).fetchone() is not None


def insert_club(conn: Conn, sim: str, club: str, name: str, token_hash: str) -> None:
    conn.execute("INSERT INTO clubs (sim, club, name, token_hash) VALUES (%s, %s, %s, %s)",
                 (sim, club, name, token_hash))


def revoke_club(conn: Conn, sim: str, club: str) -> bool:
    """Revoke the club's token; False when there is no such club not revoked already."""
    done = conn.execute("UPDATE clubs SET revoked_at = now() WHERE sim = %s AND club = %s AND revoked_at IS NULL",
                        (sim, club))
    return done.rowcount == 1


def last_heat_and_now(conn: Conn, sim: str, now: datetime | None) -> Row:
    """(the sim's last heat's start, `now` or the database's now)."""
    row = conn.execute("SELECT max(starts_at), coalesce(%s, now()) FROM heats WHERE sim = %s", (now, sim)).fetchone()
    assert row is not None
    return tuple(row)


def mark_released(conn: Conn, sim: str, now: datetime | None) -> None:
    """The sim released at `now` (the database's when None), and a scoring pass queued for its pages to show it."""
    conn.execute("UPDATE sims SET released_at = coalesce(%s, now()) WHERE id = %s", (now, sim))
    conn.execute("INSERT INTO slot_changes (sim, club, section, table_no, round, board) VALUES (%s, '', '', 0, 0, 0)",
                 (sim,))


def set_organiser(conn: Conn, login: str, password_hash: str) -> None:
    """An organiser's login added, or its password replaced; its console sessions end."""
    conn.execute("INSERT INTO organisers (login, password_hash) VALUES (%s, %s) ON CONFLICT (login) "
                 "DO UPDATE SET password_hash = excluded.password_hash", (login, password_hash))
    conn.execute("DELETE FROM console_sessions WHERE login = %s", (login,))


def organiser_password_hash(conn: Conn, login: str) -> str | None:
    row = conn.execute("SELECT password_hash FROM organisers WHERE login = %s", (login,)).fetchone()
    return None if row is None else str(row[0])


def insert_console_session(conn: Conn, id_hash: str, login: str, csrf: str) -> None:
    conn.execute("INSERT INTO console_sessions (id_hash, login, csrf) VALUES (%s, %s, %s)", (id_hash, login, csrf))


def live_console_session(conn: Conn, id_hash: str, idle: str) -> Row | None:
    """(login, form token) of the session seen within `idle` (an interval such as "6 hours"), its clock restarted."""
    return conn.execute("UPDATE console_sessions SET seen = now() WHERE id_hash = %s AND seen > now() - %s::interval "
                        "RETURNING login, csrf", (id_hash, idle)).fetchone()


def sims(conn: Conn) -> list[Row]:
    """(id, name, released_at) of every sim, the oldest first."""
    return conn.execute("SELECT id, name, released_at FROM sims ORDER BY created_at").fetchall()


def clubs_of(conn: Conn, sim: str) -> list[Row]:
    """(club, name, acknowledged push, revoked_at) of the sim's clubs."""
    return conn.execute("SELECT club, name, acked, revoked_at FROM clubs WHERE sim = %s ORDER BY club",
                        (sim,)).fetchall()


def quarantined(conn: Conn, sim: str) -> list[Row]:
    """(club, section, table, round, board, outcome, reason) of the sim's slots the scoring cannot read."""
    return conn.execute("SELECT club, section, table_no, round, board, outcome, reason FROM quarantine WHERE sim = %s "
                        "ORDER BY club, section, table_no, round, board", (sim,)).fetchall()


def latest_refusals(conn: Conn, limit: int) -> list[Row]:
    """(at, sim, club, address, status, reason, key, count) of the latest refused pushes' rows."""
    return conn.execute("SELECT at, sim, club, address, status, reason, key, count FROM refusals "
                        "ORDER BY at DESC LIMIT %s", (limit,)).fetchall()


# The pages (hub.pages) and the exports (hub.exports, hub.usebio_export)

def scored_field(conn: Conn, sim: str) -> Row | None:
    """(the sim's scored field, or None before its first pass; whether it is released); None: no such sim."""
    return conn.execute("SELECT s.field, m.released_at IS NOT NULL FROM scores s JOIN sims m ON m.id = s.sim "
                        "WHERE s.sim = %s", (sim,)).fetchone()


def sim_exists(conn: Conn, sim: str) -> bool:
    return conn.execute("SELECT 1 FROM sims WHERE id = %s", (sim,)).fetchone() is not None


def released_deal(conn: Conn, sim: str, board: int) -> str | None:
    """The board's deal once the sim is released; None before, or with no such board."""
    row = conn.execute("SELECT d.deal FROM deals d JOIN sims s ON s.id = d.sim WHERE d.sim = %s AND d.board = %s "
                       "AND s.released_at IS NOT NULL", (sim, board)).fetchone()
    return None if row is None else str(row[0])


def board_results(conn: Conn, sim: str, board: int) -> list[Row]:
    """(club, body) of every played result of the board, by club, section and table."""
    return conn.execute("SELECT club, body FROM slots WHERE sim = %s AND board = %s AND body->>'state' = 'result' "
                        "ORDER BY club, section, table_no", (sim, board)).fetchall()


def live_message(conn: Conn, sim: str, club: str | None) -> Row | None:
    """(the sim's live message, the club's pairs' national lines: None without a club)."""
    return conn.execute(
        "SELECT live, CASE WHEN %(club)s::text IS NULL THEN NULL ELSE jsonb_path_query_array(field->'national', "
        "'$[*] ? (@.pair starts with $p)', jsonb_build_object('p', %(club)s::text || '/')) END "
        "FROM scores WHERE sim = %(sim)s", {"sim": sim, "club": club}).fetchone()


def released_sim(conn: Conn, sim: str) -> Row | None:
    """(name, scoring) of the sim once released."""
    return conn.execute("SELECT name, scoring FROM sims WHERE id = %s AND released_at IS NOT NULL", (sim,)).fetchone()


def sim_released_at(conn: Conn, sim: str) -> Row | None:
    """(released_at,) of the sim: None in it before release; None: no such sim."""
    return conn.execute("SELECT released_at FROM sims WHERE id = %s", (sim,)).fetchone()


def deals(conn: Conn, sim: str) -> list[Row]:
    """(board, dealer, vulnerable, deal) of the sim's boards, in order."""
    return conn.execute("SELECT board, dealer, vulnerable, deal FROM deals WHERE sim = %s ORDER BY board",
                        (sim,)).fetchall()


def played_results(conn: Conn, sim: str, club: str | None) -> list[Row]:
    """(club, body) of the sim's played results (one club's when `club` is given), by club, section, table and
    round."""
    return conn.execute("SELECT club, body FROM slots WHERE sim = %s AND (%s::text IS NULL OR club = %s) "
                        "AND body->>'state' = 'result' ORDER BY club, section, table_no, round",
                        (sim, club, club)).fetchall()


def repeatable_read(conn: Conn) -> None:
    """The transaction just begun reads one snapshot throughout."""
    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def club_name(conn: Conn, sim: str, club: str) -> str | None:
    row = conn.execute("SELECT name FROM clubs WHERE sim = %s AND club = %s", (sim, club)).fetchone()
    return None if row is None else str(row[0])


def scored_slots(conn: Conn, sim: str, club: str | None) -> list[Row]:
    """(club, body) of the sim's slots with an outcome (one club's when `club` is given)."""
    return conn.execute("SELECT club, body FROM slots WHERE sim = %s AND (%s::text IS NULL OR club = %s) "
                        "AND outcome IS NOT NULL", (sim, club, club)).fetchall()


def first_heat(conn: Conn, sim: str) -> datetime | None:
    row = conn.execute("SELECT min(starts_at) FROM heats WHERE sim = %s", (sim,)).fetchone()
    return None if row is None else row[0]


# The field's scoring (hub.field, hub.field_imps) and the scoring worker (hub.scorer)

def counting_slots(conn: Conn, sim: str, club: str | None) -> list[Row]:
    """(club, body, outcome) of the sim's slots with an outcome (one club's when `club` is given), by club, section,
    table, round and board."""
    return conn.execute("SELECT club, body, outcome FROM slots WHERE sim = %s AND (%s::text IS NULL OR club = %s) "
                        "AND outcome IS NOT NULL ORDER BY club, section, table_no, round, board",
                        (sim, club, club)).fetchall()


def penalties(conn: Conn, sim: str, club: str | None = None) -> list[Row]:
    """(club, body) of the sim's penalties (one club's when `club` is given), by club and action."""
    return conn.execute("SELECT club, body FROM penalties WHERE sim = %s AND (%s::text IS NULL OR club = %s) "
                        "ORDER BY club, action", (sim, club, club)).fetchall()


def pair_national_figures(conn: Conn, sim: str, club: str, pair: str) -> list[Row]:
    """(board, direction, artificial, num, den, average) of the national figure of each of the pair's results."""
    return conn.execute("SELECT s.board, f.direction, f.artificial, f.num, f.den, f.average FROM slots s "
                        "JOIN national_figures f ON f.sim = s.sim AND f.board = s.board AND f.outcome = s.outcome "
                        "AND f.direction = CASE WHEN s.ns_id = %s THEN 'NS' ELSE 'EW' END WHERE s.sim = %s "
                        "AND s.club = %s AND (s.ns_id = %s OR s.ew_id = %s)", (pair, sim, club, pair, pair)).fetchall()


def most_entries(conn: Conn, sim: str) -> int:
    """The most results a board of the sim has (the field's E); 0 before its first pass."""
    row = conn.execute("SELECT max(entries) FROM national_boards WHERE sim = %s", (sim,)).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def sim_scoring(conn: Conn, sim: str) -> str | None:
    """The sim's scoring (mp, cross-imps, butler); None: no such sim."""
    row = conn.execute("SELECT scoring FROM sims WHERE id = %s", (sim,)).fetchone()
    return None if row is None else str(row[0])


def store_field(conn: Conn, sim: str, field: dict[str, Any], generation: int) -> None:
    """A pass's whole ranking stored, unless a later pass's is there already."""
    conn.execute("UPDATE scores SET field = %s, field_generation = %s WHERE sim = %s AND "
                 "coalesce(field_generation, -1) <= %s", (Jsonb(field), generation, sim, generation))


def replace_quarantine(conn: Conn, sim: str, rows: Iterable[Row]) -> None:
    """The sim's quarantined slots, all of them: (club, section, table, round, board, outcome, reason)."""
    conn.execute("DELETE FROM quarantine WHERE sim = %s", (sim,))
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO quarantine (sim, club, section, table_no, round, board, outcome, reason) VALUES "
                        "(%s, %s, %s, %s, %s, %s, %s, %s)", [(sim, *row) for row in rows])


def slots_seen(conn: Conn, sim: str) -> list[Row]:
    """(club, section, table, round, board, ns_id, ew_id, outcome) of every slot of the sim."""
    return conn.execute("SELECT club, section, table_no, round, board, ns_id, ew_id, outcome FROM slots "
                        "WHERE sim = %s", (sim,)).fetchall()


def clear_changes(conn: Conn, sim: str) -> None:
    """The sim's queue of changes to score emptied (a pass reading it whole)."""
    conn.execute("DELETE FROM slot_changes WHERE sim = %s", (sim,))


def take_changes(conn: Conn, sim: str) -> list[Row]:
    """The sim's queued changes taken off the queue: (id, club, section, table, round, board, ns_id, ew_id,
    outcome), in no order."""
    return conn.execute("DELETE FROM slot_changes WHERE sim = %s RETURNING id, club, section, table_no, round, board, "
                        "ns_id, ew_id, outcome", (sim,)).fetchall()


def try_pass_lock(conn: Conn, key: int) -> bool:
    """The lock of one sim's passes, held to the transaction's end; False when another worker holds it."""
    got = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (key,)).fetchone()
    return bool(got and got[0])


def score_state(conn: Conn, sim: str) -> Row | None:
    """(the last pass's token, the last queued change's id or None, the last pass's generation); None: no sim."""
    return conn.execute("SELECT token, (SELECT max(id) FROM slot_changes WHERE sim = %s), scored FROM scores "
                        "WHERE sim = %s", (sim, sim)).fetchone()


def replace_board_figures(conn: Conn, sim: str, changed: Sequence[tuple[int, int, Iterable[Row]]]) -> None:
    """The national figures of the boards re-scored: (board, its results, its figures: direction, outcome,
    artificial, num, den, average), in place of theirs (a board's figures go with its row); by COPY: a pass writes
    thousands."""
    conn.execute("DELETE FROM national_boards WHERE sim = %s AND board = ANY(%s)", (sim, [b for b, _, _ in changed]))
    with conn.cursor() as cur:
        with cur.copy("COPY national_boards (sim, board, entries) FROM STDIN") as copy:
            for board, n, _ in changed:
                if n:
                    copy.write_row((sim, board, n))
        with cur.copy("COPY national_figures (sim, board, direction, outcome, artificial, num, den, average) "
                      "FROM STDIN") as copy:
            for board, _, figures in changed:
                for figure in figures:
                    copy.write_row((sim, board, *figure))


def store_live(conn: Conn, sim: str, generation: int, live: dict[str, Any], token: str) -> None:
    """A pass's live message stored, with its generation and token (its whole ranking waits: store_field)."""
    conn.execute("UPDATE scores SET scored = %s, live = %s, cards = NULL, scored_at = now(), token = %s WHERE sim = %s",
                 (generation, Jsonb(live), token, sim))


def changes_waiting(conn: Conn, sim: str) -> bool:
    row = conn.execute("SELECT EXISTS (SELECT 1 FROM slot_changes WHERE sim = %s)", (sim,)).fetchone()
    return bool(row and row[0])


def sims_half_stored(conn: Conn) -> list[str]:
    """The sims whose last pass stored its live message but not its whole ranking (its worker stopped between)."""
    return [str(r[0]) for r in conn.execute("SELECT sim FROM scores WHERE live IS NOT NULL AND field_generation "
                                            "IS DISTINCT FROM scored ORDER BY sim").fetchall()]


def sims_with_changes(conn: Conn) -> list[str]:
    """The sims with changes queued to score."""
    return [str(r[0]) for r in conn.execute("SELECT DISTINCT sim FROM slot_changes ORDER BY sim").fetchall()]
