"""SQL lives in tenace.store alone: no module elsewhere under host/tenace runs a statement on a connection.

The one exception is the hub of a simultaneous event (tenace.hub), a separate service on its own PostgreSQL database,
which reads event files only through the store: its own SQL stays in one module of its package (hub/queries.py, and
its schema's migrations in hub/schema.py), and in the simulated clubs and the throwaway cluster that stand up that
database for the tests and `tenace sim --clubs` (tenace.simulation)."""

from __future__ import annotations

import ast
from pathlib import Path

import tenace

PACKAGE = Path(tenace.__file__).resolve().parent
STORE = PACKAGE / "store"
HUB = PACKAGE / "hub"  # the hub's own database (PostgreSQL); event files only through the store
# Beside the hub, on its database: the simulated clubs' organiser and the throwaway cluster.
HUB_DATABASE = frozenset((PACKAGE / "simulation" / "clubs.py", PACKAGE / "simulation" / "cluster.py"))
# The hub's modules that may run SQL: its queries, and its schema's migrations.
HUB_SQL = frozenset((HUB / "queries.py", HUB / "schema.py"))
# The sqlite3 methods that run SQL (Connection's shortcuts and Cursor's); psycopg's are the same, and its COPY.
RUNS_SQL = frozenset(("execute", "executemany", "executescript"))


def sql_calls(source: str, filename: str = "<module>") -> list[str]:
    """Where a module names a method that runs SQL: `x.execute(...)`, `f = x.execute` or `getattr(x, "execute")`."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Attribute) and node.attr in RUNS_SQL:
            found.append(f"{filename}:{node.lineno}: .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "copy"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append(f"{filename}:{node.lineno}: .copy")  # psycopg's cur.copy("COPY ..."), not a dict's copy()
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in RUNS_SQL):
            found.append(f"{filename}:{node.lineno}: getattr {node.args[1].value}")
    return sorted(found, key=lambda hit: int(hit.split(":")[1]))


def modules_outside_store() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if STORE not in p.parents and HUB not in p.parents and p not in HUB_DATABASE)


def test_the_scan_sees_the_package() -> None:
    # The scan must look at the real package: an empty list would pass whatever the code does.
    names = {p.relative_to(PACKAGE).as_posix() for p in modules_outside_store()}
    assert {"collector/collector.py", "commands/problems.py", "simulation/session/outcome.py"} <= names
    assert not any(n.startswith("store/") for n in names)


def test_no_sql_outside_the_store() -> None:
    found = [hit for p in modules_outside_store()
             for hit in sql_calls(p.read_text(encoding="utf-8"), p.relative_to(PACKAGE).as_posix())]
    assert found == [], "SQL outside tenace.store (move it into a store function):\n" + "\n".join(found)


def hub_modules() -> list[Path]:
    return sorted(p for p in HUB.rglob("*.py") if p not in HUB_SQL)


def test_the_hubs_sql_is_in_its_queries_module() -> None:
    names = {p.relative_to(HUB).as_posix() for p in hub_modules()}
    assert {"pages.py", "console.py", "organiser.py", "ingest.py", "exports.py", "usebio_export.py", "scorer.py",
            "field.py", "field_imps.py", "app.py"} <= names
    found = [hit for p in hub_modules()
             for hit in sql_calls(p.read_text(encoding="utf-8"), p.relative_to(PACKAGE).as_posix())]
    assert found == [], "SQL in the hub outside hub/queries.py (move it there, named):\n" + "\n".join(found)
    assert sql_calls((HUB / "queries.py").read_text(encoding="utf-8"))


def test_the_scan_finds_a_planted_call() -> None:
    planted = '''
def count(conn):
    return conn.execute("SELECT count(*) FROM result").fetchone()[0]

def many(db, rows):
    db.connection().executemany("INSERT INTO t VALUES (?)", rows)

run = reader.executescript
later = getattr(conn, "execute")
kept = dict(rows).copy()
cur.copy("COPY t FROM STDIN")
'''
    assert sql_calls(planted) == ["<module>:3: .execute", "<module>:6: .executemany",
                                  "<module>:8: .executescript", "<module>:9: getattr execute", "<module>:11: .copy"]


def test_the_store_itself_is_where_sql_is() -> None:
    # Sanity check of the scanner on the real store: it has SQL, so the scan is not blind to this code.
    assert sql_calls((STORE / "queries.py").read_text(encoding="utf-8"))
