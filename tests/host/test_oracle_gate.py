"""The oracles cannot be skipped in CI: .ci/run and pytest refuse to go on without them; elsewhere one skip line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ORACLE_FILES, ROOT, oracle_skip_reason, oracles_problem

STUB_TESTS = "#!/usr/bin/env bash\necho RAN-THE-TESTS\n"


def env_without_ci() -> dict[str, str]:
    # This suite itself runs in CI with CI=true: each case below sets it or not on purpose.
    return {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}


# What .ci/run insists on in ../shared/firmware/rp2 besides the oracles (the emulated RP2040's tests).
RP2_FILES = ("micropython-v1.28.0-RPI_PICO.uf2", "bootrom-b1.bin")


def layout(tmp_path: Path, oracles: tuple[str, ...] | None, rp2: tuple[str, ...] = RP2_FILES) -> Path:
    """A clone with .ci/run and a stand-in tools/run-tests; ../shared/oracles holds `oracles` (None: no folder),
    ../shared/firmware/rp2 the files `rp2` names."""
    repo = tmp_path / "main"
    (repo / ".ci").mkdir(parents=True)
    (repo / "tools").mkdir()
    shutil.copy(ROOT / ".ci" / "run", repo / ".ci" / "run")
    stub = repo / "tools" / "run-tests"
    stub.write_text(STUB_TESTS)
    stub.chmod(0o755)
    if oracles is not None:
        folder = tmp_path / "shared" / "oracles"
        folder.mkdir(parents=True)
        for name in oracles:
            (folder / name).write_text('[Board "1"]\n')
    (tmp_path / "shared" / "firmware" / "rp2").mkdir(parents=True)
    for name in rp2:
        (tmp_path / "shared" / "firmware" / "rp2" / name).write_bytes(b"")
    return repo


def ci_run(repo: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(repo / ".ci" / "run")], env={**env_without_ci(), "CI": "true"},
                          capture_output=True, text=True, timeout=60)


def test_ci_run_stops_at_once_without_the_oracle_folder(tmp_path: Path) -> None:
    proc = ci_run(layout(tmp_path, None))
    assert proc.returncode == 1
    assert "RAN-THE-TESTS" not in proc.stdout
    assert proc.stderr.splitlines() == [
        "ci: ../shared/oracles is absent: CI must run the oracle tests against the published results "
        "(clone shared beside the project)"]


@pytest.mark.parametrize("absent", ORACLE_FILES)
def test_ci_run_names_a_missing_oracle_file(tmp_path: Path, absent: str) -> None:
    proc = ci_run(layout(tmp_path, tuple(name for name in ORACLE_FILES if name != absent)))
    assert proc.returncode == 1 and "RAN-THE-TESTS" not in proc.stdout
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"ci: ../shared/oracles lacks {absent}: ")


@pytest.mark.parametrize("absent", RP2_FILES)
def test_ci_run_names_a_missing_rp2_file(tmp_path: Path, absent: str) -> None:
    proc = ci_run(layout(tmp_path, ORACLE_FILES, tuple(name for name in RP2_FILES if name != absent)))
    assert proc.returncode == 1 and "RAN-THE-TESTS" not in proc.stdout
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"ci: ../shared/firmware/rp2/{absent} is absent: ")


def test_ci_run_runs_the_tests_when_the_oracles_are_there(tmp_path: Path) -> None:
    proc = ci_run(layout(tmp_path, ORACLE_FILES))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "RAN-THE-TESTS\n", "")


def test_the_conftest_rule(tmp_path: Path) -> None:
    folder = tmp_path / "oracles"
    assert oracles_problem(folder) == f"the published results are absent: no folder {folder}"
    with pytest.raises(pytest.UsageError, match=r"^CI=true and the published results are absent: .* not be skipped"):
        oracle_skip_reason(folder, {"CI": "true"})
    reason = oracle_skip_reason(folder, {})
    assert reason is not None and reason.startswith("the published results are absent")
    folder.mkdir()
    (folder / ORACLE_FILES[0]).write_text("")
    lacking = ", ".join(ORACLE_FILES[1:])
    assert oracles_problem(folder) == f"the published results are incomplete: {folder} lacks {lacking}"
    with pytest.raises(pytest.UsageError):
        oracle_skip_reason(folder, {"CI": "true"})
    for name in ORACLE_FILES[1:]:
        (folder / name).write_text("")
    assert oracle_skip_reason(folder, {"CI": "true"}) is None and oracle_skip_reason(folder, {}) is None


ORACLE_TESTS = """import pytest

pytestmark = pytest.mark.oracles


def test_one() -> None:
    pass


def test_two() -> None:
    pass
"""


@pytest.fixture
def suite_without_oracles(tmp_path: Path) -> Path:
    """The project's conftest in a clone with no ../shared, and two tests marked as needing the oracles."""
    tests = tmp_path / "main" / "tests"
    tests.mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "conftest.py", tests / "conftest.py")
    (tests / "test_needs_oracles.py").write_text(ORACLE_TESTS)
    (tests.parent / "pytest.ini").write_text("[pytest]\naddopts = -ra --strict-markers -p no:cacheprovider\n")
    return tests


def run_pytest(tests: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", str(tests)], cwd=tests.parent, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_pytest_fails_in_ci_without_the_oracles(suite_without_oracles: Path) -> None:
    proc = run_pytest(suite_without_oracles, {**env_without_ci(), "CI": "true"})
    assert proc.returncode == pytest.ExitCode.USAGE_ERROR, proc.stdout
    assert "CI=true and the published results are absent" in proc.stderr
    assert "passed" not in proc.stdout and "skipped" not in proc.stdout


@pytest.mark.slow
def test_pytest_elsewhere_skips_them_with_one_line(suite_without_oracles: Path) -> None:
    proc = run_pytest(suite_without_oracles, env_without_ci())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    skips = [line for line in proc.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 1 and skips[0].startswith("SKIPPED [2] ")
    assert "the published results are absent" in skips[0]
