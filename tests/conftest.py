"""Shared pytest fixtures: paths of the project and of its tools in .venv, and the rule for the oracle files."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import re
import secrets
import signal
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

import pytest

from tenace.errors import UsageError
from tenace.firmware_build import SIM_DIR, build, flat, package_tree, toolchain
from tenace.hub.serving import DB_ENV
from tenace.simulation.cluster import MISSING, Cluster, binaries

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FIRMWARE_TESTS = ROOT / "tests" / "firmware"
SHARED = ROOT.parent / "shared"
ORACLES = SHARED / "oracles"
# The published results the oracle tests check against (listed again in .ci/run, which refuses to start without them).
ORACLE_FILES = ("ffb-2022-dn1-session1.pbn", "venice-cup-1997-final-2.pbn", "okbridge-imp-pairs-01.pbn",
                "fifth-friday-1999-frequency.pbn")
# micropython-lib's nrf24l01 driver, unchanged, with its licence and its sha256 in SOURCE.md: no registry reachable
# here ships it. The nRF24 tests run the board files and the transport over it, on CPython and MicroPython.
NRF24_DRIVER_DIR = SHARED / "vendor" / "micropython-lib" / "nrf24l01"
# Test modules (tests/firmware, run under MicroPython too, without pytest to mark with) that need the driver.
NRF24_DRIVER_MODULES = frozenset({"test_radio_nrf24.py", "test_radio_nrf24_chip.py"})
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
    """The firmware and its tests compiled by mpy-cross into one folder, as they would ship to a device; with the
    nRF24L01+ model they run the radio on (SIM_DIR's nrf24_model) and micropython-lib's nrf24l01 driver when
    ../shared has it (the modules of NRF24_DRIVER_MODULES check it first)."""
    driver = [] if nrf24_driver_problem() else flat(NRF24_DRIVER_DIR, ["nrf24l01.py"])
    return build(tmp_path_factory.mktemp("mpy"), package_tree(FIRMWARE) + flat(FIRMWARE_TESTS)
                 + flat(SIM_DIR, ["nrf24_model.py"]) + driver)


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


def nrf24_driver_problem(folder: Path = NRF24_DRIVER_DIR) -> str | None:
    """Why the nrf24l01 driver cannot be used (absent), None when it is there."""
    if not (folder / "nrf24l01.py").is_file() or not (folder / "SOURCE.md").is_file():
        return f"micropython-lib's nrf24l01 driver is absent: no {folder / 'nrf24l01.py'} with its SOURCE.md"
    return None


def nrf24_driver(folder: Path = NRF24_DRIVER_DIR) -> Path:
    """The driver's nrf24l01.py, its sha256 checked against SOURCE.md: a changed file fails the test (it is not the
    driver the device gets), an absent one skips it (in CI: fails)."""
    problem = nrf24_driver_problem(folder)
    if problem:
        if in_ci(os.environ):
            pytest.fail(f"CI=true and {problem}")
        pytest.skip(f"{problem} (put the shared folder beside the project to run the nRF24 tests)")
    source = folder / "nrf24l01.py"
    found = re.search(r"^sha256 nrf24l01\.py ([0-9a-f]{64})$", (folder / "SOURCE.md").read_text(encoding="utf-8"),
                      re.M)
    if found is None:
        pytest.fail(f"{folder / 'SOURCE.md'} gives no sha256 for nrf24l01.py")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    if digest != found[1]:
        pytest.fail(f"{source} has sha256 {digest}, SOURCE.md says {found[1]}: not the driver it names")
    return source


def utime_standin() -> ModuleType:
    """MicroPython's utime as the driver uses it (ticks_ms, ticks_diff, sleep_ms, sleep_us), on CPython's clock."""
    module = ModuleType("utime")
    module.ticks_ms = lambda: time.monotonic_ns() // 1_000_000  # type: ignore[attr-defined]
    module.ticks_diff = lambda a, b: a - b  # type: ignore[attr-defined]
    module.sleep_ms = lambda ms: time.sleep(ms / 1000)  # type: ignore[attr-defined]
    module.sleep_us = lambda us: time.sleep(us / 1_000_000)  # type: ignore[attr-defined]
    return module


def load_nrf24_driver() -> ModuleType:
    """The checked driver imported as `nrf24l01` on CPython (with a utime for it), as the tests import it."""
    if "nrf24l01" not in sys.modules:
        source = nrf24_driver()
        sys.modules.setdefault("utime", utime_standin())
        spec = importlib.util.spec_from_file_location("nrf24l01", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["nrf24l01"] = module
    return sys.modules["nrf24l01"]


_ORACLE_SKIP = pytest.StashKey[str | None]()
# Every process the suite starts inherits this variable (set once, in the controller, before any xdist worker):
# any still running when the session ends was left behind, under init or not, and fails the run.
SESSION_ENV = "TENACE_TEST_SESSION"
LEFT_BEHIND_GRACE_S = 10.0  # what is stopping as the session ends (xdist's workers, a cluster) has this long


def processes_marked(mark: str) -> dict[int, str]:
    """The running processes (those this user may read) whose environment has SESSION_ENV=mark, this one aside:
    each one's command line by its id (from /proc: the project does not depend on psutil)."""
    needle = f"{SESSION_ENV}={mark}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError):  # ended meanwhile, or another user's
            continue
        if state != "Z":  # a zombie has ended already
            found[int(entry.name)] = command
    return found


@pytest.hookimpl(wrapper=True)
def pytest_sessionfinish(session: pytest.Session) -> Iterator[None]:
    """After everything else (xdist's workers stopped, fixtures torn down): the run fails if a process it started
    still runs, each named; they are killed then, so that none outlives the run."""
    result = yield
    mark = os.environ.get(SESSION_ENV)
    if hasattr(session.config, "workerinput") or not mark or not Path("/proc/self/environ").exists():
        return result
    deadline = time.monotonic() + LEFT_BEHIND_GRACE_S
    while (left := processes_marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.2)
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        title = f"{len(left)} process(es) started by the tests still running at the end (killed now)"
        lines = [f"{pid} {command[:200]}" for pid, command in sorted(left.items())]
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_sep("=", title, red=True)
            for line in lines:
                reporter.write_line(line, red=True)
        else:
            print(title, *lines, sep="\n", file=sys.stderr)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        os.environ[SESSION_ENV] = secrets.token_hex(8)  # a pytest run by a test marks its own
    config.addinivalue_line("markers", "oracles: checks figures against the published results in ../shared/oracles")
    # Decided once per session, before collection, so that CI fails at once whatever tests were selected.
    config.stash[_ORACLE_SKIP] = oracle_skip_reason(ORACLES, os.environ)
    config.addinivalue_line("markers", "nrf24_driver: runs over micropython-lib's nrf24l01 driver from ../shared")
    problem = nrf24_driver_problem()
    if problem and in_ci(os.environ):
        raise pytest.UsageError(f"CI=true and {problem}: the nRF24 tests may not be skipped in CI")


# tests/terminal/ runs under MicroPython too, without pytest to mark with: its slow tests are named here instead.
SLOW_TERMINAL_TESTS = frozenset({
    "test_terminal_menus.py::test_random_keys_never_crash_the_app",
    "test_terminal_resume.py::test_more_results_than_the_link_has_in_flight_wait_in_it_and_all_arrive_once",
})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in NRF24_DRIVER_MODULES:
            item.add_marker(pytest.mark.nrf24_driver)
        if f"{item.path.name}::{item.name}" in SLOW_TERMINAL_TESTS:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item: pytest.Item) -> None:
    reason = item.config.stash[_ORACLE_SKIP]
    if reason and item.get_closest_marker("oracles"):
        # Skipped from this one line rather than by a skipif mark, so `-ra` folds every such skip into one report.
        pytest.skip(reason)
    if item.get_closest_marker("nrf24_driver"):
        load_nrf24_driver()  # or the one line saying it is absent (a failure in CI)


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
    """A throwaway PostgreSQL cluster for the hub's tests (simulation/cluster.py), stopped and removed after; missing
    server binaries are a skip with one reason, and in CI a failure."""
    if binaries() is None:
        if in_ci(os.environ):
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    with Cluster.start() as cluster:
        yield cluster


@pytest.fixture
def hub_db(pg_cluster: Cluster, monkeypatch: pytest.MonkeyPatch) -> str:
    """The URL of a new, empty, migrated hub database in the session's cluster: one per test; `tenace hub` reads it
    from the environment (TENACE_HUB_DB), as an organiser would give it (not on the command line, seen by ps)."""
    import psycopg

    from tenace.hub.schema import migrate

    name = f"t{secrets.token_hex(6)}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    monkeypatch.setenv(DB_ENV, url)
    return url
