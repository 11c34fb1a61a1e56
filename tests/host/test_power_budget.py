"""The power budget: a session on each build's metered simulated hardware, and tools/power_budget.py's figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenace.firmware_build import HARDWARE, SIM_DIR

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "power_budget.py"
BUILDS = ("terminal-esp32c3-espnow", "terminal-pico-nrf24")


def session(build: str, rounds: int = 1) -> dict[str, Any]:
    import power_budget  # tools/ (tests/conftest.py puts it on the path)

    power = power_budget.read_power(build)
    report: dict[str, Any] = power_budget.measure(power, rounds)
    return report


@pytest.mark.parametrize("build", BUILDS)
def test_every_build_has_cited_currents(build: str) -> None:
    import power_budget

    power = power_budget.read_power(build)
    assert power["battery"]["usable_mah"] > 0
    for entry in power["current"] + power.get("charge", []):
        assert len(entry["source"]) > 20, entry  # where the figure comes from, not just a number
    assert build in power_budget.builds()


@pytest.mark.parametrize("build", BUILDS)
def test_the_measured_times_add_up_to_the_session(build: str) -> None:
    report = session(build)
    total = report["session_ms"]
    ms = report["ms"]
    assert report["faults"] == 0 and report["accepted"] == 3  # one round of 3 boards, every result stored
    assert total > 3 * 7 * 60000  # three boards played at the club's pace
    for part in ("cpu", "radio", "display"):
        spent = sum(v for k, v in ms.items() if k.startswith(part + ".") and k not in ("radio.tx", "display.pixel_ms"))
        assert spent == total, (part, ms)
    assert 0 < ms["radio.tx"] < total / 100  # a terminal speaks seldom
    assert report["counts"]["keys.pressed"] == report["keys"]  # every key the players meant went in
    assert report["counts"]["keys.scans"] > total / 20  # the keypad is scanned as the loop goes round


def test_the_tool_prints_hours_and_sessions_per_build(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(TOOL), "--rounds", "1", "--save", str(tmp_path)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "avg mA" in lines[0] and "h/charge" in lines[0] and "sessions" in lines[0]
    for build in BUILDS:
        row = next(line for line in lines if line.startswith(build))
        average, hours, sessions = (float(x) for x in row.split()[-3:])
        assert average > 0 and abs(hours - 2200 / average) <= 1 and abs(sessions - hours / 3) <= 1, row
        assert (tmp_path / f"{build}.json").is_file()
    again = subprocess.run([sys.executable, str(TOOL), "--load", str(tmp_path)], capture_output=True, text=True,
                           timeout=60, check=False)
    assert again.returncode == 0 and again.stdout == out.stdout, again.stderr


def test_a_build_without_a_budget_is_one_line_and_exit_2() -> None:
    out = subprocess.run([sys.executable, str(TOOL), "--build", "base-pico-nrf24"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "Traceback" not in out.stderr


def test_the_simulator_programs_are_where_the_tool_looks() -> None:
    assert (SIM_DIR / "power_session.py").is_file() and (HARDWARE / BUILDS[0] / "power.toml").is_file()
