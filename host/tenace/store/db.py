"""Opening an event file (WAL, foreign keys, full sync), bringing its schema up to date, and transactions."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from tenace.store import ledger
from tenace.store.errors import StoreError
from tenace.store.schema import APPLICATION_ID, MIGRATIONS

log = logging.getLogger(__name__)

# Long enough for a writer's transaction (milliseconds) to finish; readers never wait in WAL mode.
BUSY_TIMEOUT_S = 30.0


def schema_version(migrations: tuple[tuple[int, str], ...] = MIGRATIONS) -> int:
    """The version a file has once every migration is applied."""
    return max(version for version, _ in migrations)


def connect(path: Path | str, *, create: bool = False,
            migrations: tuple[tuple[int, str], ...] = MIGRATIONS) -> sqlite3.Connection:
    """A connection to an event file, its schema brought up to date.

    Refused (StoreError): a missing file unless `create`, an SQLite file that is not a Tenace event,
    a file from a newer Tenace. Transactions are explicit (see `transaction`): the connection is in
    autocommit mode so that nothing is ever committed behind the caller's back.
    """
    path = Path(path)
    if not create and not path.exists():
        raise StoreError(f"{path}: no such event file (create one with `tenace event new`)")
    if not create and path.is_dir():
        raise StoreError(f"{path} is a folder, not an event file")
    # SQLite would take an empty file as a new database and migrate it: an event file is never empty.
    if not create and path.is_file() and path.stat().st_size == 0:
        raise StoreError(f"{path} is an empty file, not an event file (create one with `tenace event new`)")
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as e:
        raise StoreError(f"{path}: cannot open: {e}") from None
    try:
        _configure(conn, path)
        migrate(conn, migrations)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise StoreError(f"{path}: not a usable event file: {e}") from None
    except StoreError:
        conn.close()
        raise
    conn.row_factory = sqlite3.Row
    return conn


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    # Whose file it is comes first: switching another program's database to WAL would change it.
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if application_id != APPLICATION_ID and (version or tables):
        raise StoreError(f"{path}: an SQLite file, but not a Tenace event file")
    # WAL: readers (rankings, the live page) never block the collector and the collector never blocks them.
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        log.warning("%s: journal mode is %s, not WAL", path, mode)
    # FULL: a COMMIT is on disk before it returns, so an acknowledged result survives a power cut.
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")


def migrate(conn: sqlite3.Connection, migrations: tuple[tuple[int, str], ...] = MIGRATIONS) -> int:
    """Apply, each in its own transaction, the migrations above the file's version; the version reached."""
    latest = schema_version(migrations)
    # The chain's triggers hash every row written (tenace.store.ledger), from the migration that makes them on.
    ledger.register(conn)
    current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if current > latest:
        raise StoreError(f"event file schema version {current} is newer than this Tenace's ({latest}): upgrade Tenace")
    for version, script in sorted(migrations):
        if version <= current:
            continue
        log.info("migrating the event file to schema version %d", version)
        # Foreign keys off while a script runs (SQLite's way to make a table anew: dropping the old one would
        # otherwise fail on the rows that refer to it); checked before the commit instead.
        enforced = conn.execute("PRAGMA foreign_keys").fetchone()[0]
        conn.execute("PRAGMA foreign_keys = OFF")
        try:
            # executescript would commit a pending transaction first; this script is its own transaction.
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\n;PRAGMA application_id = {APPLICATION_ID};\n"
                f"PRAGMA user_version = {version};"
            )
            broken = conn.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise sqlite3.IntegrityError(f"migration {version} breaks {len(broken)} reference(s), "
                                             f"first in table {broken[0][0]}")
            conn.execute("COMMIT")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            # Another process may have migrated the file at the same moment: fine if it got there.
            reached = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if reached < version:
                raise
        finally:
            conn.execute(f"PRAGMA foreign_keys = {'ON' if enforced else 'OFF'}")
        current = version
    return current


def commit(conn: sqlite3.Connection) -> None:
    """COMMIT; a function of its own so that the crash tests can stop a process just before it."""
    conn.execute("COMMIT")


@contextmanager
def _within(conn: sqlite3.Connection, begin: str, end: Callable[[sqlite3.Connection], object]
            ) -> Iterator[sqlite3.Connection]:
    conn.execute(begin)
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    end(conn)


def read_transaction(conn: sqlite3.Connection) -> AbstractContextManager[sqlite3.Connection]:
    """One read transaction (BEGIN ... COMMIT): every read inside sees the file at the same moment,
    even while another process writes."""
    return _within(conn, "BEGIN", lambda c: c.execute("COMMIT"))


def transaction(conn: sqlite3.Connection) -> AbstractContextManager[sqlite3.Connection]:
    """One write transaction: BEGIN IMMEDIATE (takes the write lock now, so what is read stays true),
    COMMIT on success, ROLLBACK on any exception."""
    return _within(conn, "BEGIN IMMEDIATE", commit)


def connect_read_only(path: Path | str) -> sqlite3.Connection:
    """A connection that cannot write to an event file (the public pages): SQLite refuses any write on it.

    The file must be a Tenace event file at this Tenace's schema version (open it once with `connect`, as every
    other command does, to bring an older one up to date). `check_same_thread` is off: a page is rendered in a
    worker thread, one connection per render.
    """
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"{path}: no such event file")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                               timeout=BUSY_TIMEOUT_S, check_same_thread=False)
    except sqlite3.Error as e:
        raise StoreError(f"{path}: cannot open: {e}") from None
    try:
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute("PRAGMA query_only = ON")
    except sqlite3.DatabaseError as e:
        conn.close()
        raise StoreError(f"{path}: not a usable event file: {e}") from None
    if application_id != APPLICATION_ID or version != schema_version():
        conn.close()
        raise StoreError(f"{path}: not a Tenace event file of this version")
    conn.row_factory = sqlite3.Row
    return conn


def data_version(conn: sqlite3.Connection) -> int:
    """A number that changes whenever another connection commits to the file: a cheap way to notice new results."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0])
