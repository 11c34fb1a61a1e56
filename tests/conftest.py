"""Shared pytest fixtures: paths of the project and of its tools in .venv, and the rule for the oracle files."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tenace.errors import UsageError
from tenace.firmware_build import SIM_DIR, build, flat, package_tree, toolchain
from tenace.hub.cluster import MISSING, Cluster, binaries

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_TESTS = ROOT / "tests" / "firmware"
SHARED = ROOT.parent / "shared"
ORACLES = SHARED / "oracles"
# The published results the oracle tests check against (listed again in .ci/run, which refuses to start without them).
ORACLE_FILES = ("ffb-2022-dn1-session1.pbn", "venice-cup-1997-final-2.pbn", "okbridge-imp-pairs-01.pbn")
# Tests that read ORACLES carry this mark: skipped, with one reason, where they are absent, except in CI.
needs_oracles = pytest.mark.oracles

# The firmware's own tests import their helpers by bare name, as they do under MicroPython.
sys.path.insert(0, str(FIRMWARE_TESTS))
# The terminal app and the simulator's MicroPython programs (host/tenace/simulation/boards) are imported the
# same way by tests/terminal.
sys.path[1:1] = [str(FIRMWARE), str(SIM_DIR)]
# What tests and benchmarks share and the product does not ship: sample results, simulated scores.
TOOLS = ROOT / "tools"
sys.path.append(str(TOOLS))


@pytest.fixture(autouse=True)
def no_club_key(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads or makes the club key of the user running it (tenace.club_key): by default the laptop has
    none; a test that wants one points TENACE_CLUB_KEY at its own."""
    monkeypatch.setenv("TENACE_CLUB_KEY", str(tmp_path_factory.getbasetemp() / "no-club-key" / "club.key"))


def venv_tool(name: str) -> Path:
    """A console script installed next to the running interpreter (.venv/bin), else on PATH; the test fails
    when set-up has not installed it."""
    try:
        return toolchain(name)
    except UsageError as e:
        pytest.fail(str(e))


@pytest.fixture(scope="session")
def mpy_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The firmware and its tests compiled by mpy-cross into one folder, as they would ship to a device."""
    return build(tmp_path_factory.mktemp("mpy"), package_tree(FIRMWARE) + flat(FIRMWARE_TESTS))


def oracles_problem(folder: Path) -> str | None:
    """What is wrong with the oracle folder (absent, or lacking some of ORACLE_FILES), None when all are there."""
    if not folder.is_dir():
        return f"the published results are absent: no folder {folder}"
    missing = [name for name in ORACLE_FILES if not (folder / name).is_file()]
    return f"the published results are incomplete: {folder} lacks {', '.join(missing)}" if missing else None


def in_ci(env: Mapping[str, str]) -> bool:
    return env.get("CI", "").strip().lower() in ("true", "1", "yes")


def oracle_skip_reason(folder: Path, env: Mapping[str, str]) -> str | None:
    """Why oracle tests are skipped here (None: they run); in CI their absence is an error, never a skip."""
    problem = oracles_problem(folder)
    if problem and in_ci(env):
        raise pytest.UsageError(f"CI=true and {problem}: the oracle tests may not be skipped in CI")
    return problem and f"{problem} (put the shared folder beside the project to run the oracle tests)"


_ORACLE_SKIP = pytest.StashKey[str | None]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "oracles: checks figures against the published results in ../shared/oracles")
    # Decided once per session, before collection, so that CI fails at once whatever tests were selected.
    config.stash[_ORACLE_SKIP] = oracle_skip_reason(ORACLES, os.environ)


# tests/terminal/ runs under MicroPython too, without pytest to mark with: its slow tests are named here instead.
SLOW_TERMINAL_TESTS = frozenset({
    "test_terminal_menus.py::test_random_keys_never_crash_the_app",
    "test_terminal_resume.py::test_more_results_than_the_link_has_in_flight_wait_in_it_and_all_arrive_once",
})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if f"{item.path.name}::{item.name}" in SLOW_TERMINAL_TESTS:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = item.config.stash[_ORACLE_SKIP]
    if reason and item.get_closest_marker("oracles"):
        # Skipped from this one line rather than by a skipif mark, so `-ra` folds every such skip into one report.
        pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_path() -> str:
    """Debian's chromium for the browser tests (Playwright drives it as the system browser); missing, a skip, and
    in CI a failure."""
    from live_page import chromium  # tools/: it brings the web server's modules, which most tests never need

    path = chromium()
    if path is None:
        message = "chromium is not installed (tools/setup-env installs Debian's package when run as root)"
        if in_ci(os.environ):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the hub's tests (tenace.hub.cluster), stopped and removed after; missing
    server binaries are a skip with one reason, and in CI a failure."""
    if binaries() is None:
        if in_ci(os.environ):
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    with Cluster.start() as cluster:
        yield cluster


@pytest.fixture
def hub_db(pg_cluster: Cluster) -> str:
    """The URL of a new, empty, migrated hub database in the session's cluster: one per test."""
    import psycopg

    from tenace.hub.schema import migrate

    name = f"t{secrets.token_hex(6)}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    return url
