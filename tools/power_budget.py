#!/usr/bin/env python3
"""Power budget of each terminal build: the simulator's measured on-times times the datasheets' currents.

For every hardware/terminal-*/ folder with a power.toml, plays a whole session at one table at a club's pace on
that build's simulated hardware (host/tenace/simulation/boards/power_session.py: the real app, link and
collector, metered devices), then combines the time each part spent in each state with its current from the
build's power.toml (each figure cited there) into the average current from the cell, hours per charge and
sessions per charge (three-hour sessions) on the build's battery. Then the same for an idle table: signed in,
round 1 on its screen, nobody keying for 20 minutes (the players not there yet, a sit-out, a held table), its
link polling on its idle schedule (wire_link.py: every 6 s, as while playing, so that a change reaches it in 15 s).

Run: .venv/bin/python tools/power_budget.py [--build NAME ...] [--rounds 8] [--save DIR | --load DIR]
--save writes what each session measured to DIR/<build>.json, and the idle stretch to DIR/<build>-idle.json;
--load reads those instead of playing again.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenace.firmware_build import HARDWARE, SIM_DIR

SESSION_HOURS = 3.0
GOAL_HOURS = 500.0  # a Bridgemate II's, on two AA cells


@dataclass(frozen=True)
class Budget:
    """One build's figures: mA from the cell by part, the average, and what the battery gives."""

    build: str
    battery: str
    usable_mah: float
    session_ms: int
    by_part: dict[str, float]

    @property
    def average_ma(self) -> float:
        return sum(self.by_part.values())

    @property
    def hours(self) -> float:
        return self.usable_mah / self.average_ma

    @property
    def sessions(self) -> float:
        return self.hours / SESSION_HOURS


def builds() -> list[str]:
    """The terminal builds with a power.toml, by folder name."""
    return sorted(p.parent.name for p in HARDWARE.glob("terminal-*/power.toml"))


def read_power(build: str) -> dict[str, Any]:
    path = HARDWARE / build / "power.toml"
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SystemExit(f"power_budget: {path}: {e}") from None


def measure(power: dict[str, Any], rounds: int, idle: bool = False) -> dict[str, Any]:
    """Play the session on the build's simulated hardware (`idle`: sit at a table signed in, keying nothing); the
    meter's report."""
    if str(SIM_DIR) not in sys.path:
        sys.path.insert(0, str(SIM_DIR))
    import power_session  # type: ignore[import-not-found]  # a MicroPython-style program of the simulator

    options = dict(power["session"], rounds=rounds)
    report: dict[str, Any] = power_session.idle(options) if idle else power_session.play(options)
    return report


def budget(build: str, power: dict[str, Any], measured: dict[str, Any]) -> Budget:
    """Each state's time times its current, each count times its charge, over the session: mA from the cell."""
    session_ms = int(measured["session_ms"])
    times: dict[str, float] = measured["ms"]
    counts: dict[str, int] = measured["counts"]
    currents = {c["state"]: float(c["ma"]) for c in power.get("current", [])}
    missing = sorted(set(times) - set(currents))
    if missing:
        raise SystemExit(f"power_budget: {build}: no current for {', '.join(missing)} in its power.toml")
    supply = power["supply"]
    by_part: dict[str, float] = {}
    for state, ms in times.items():
        part = state.split(".")[0]
        ma_ms = currents[state] * ms
        if state == "radio.rx":  # the receiver is off while it transmits
            ma_ms = currents[state] * max(0.0, ms - times.get("radio.tx", 0.0))
        by_part[part] = by_part.get(part, 0.0) + ma_ms / session_ms * float(supply["to_cell"])
    for charge in power.get("charge", []):
        part = str(charge["count"]).split(".")[0]
        by_part[part] = by_part.get(part, 0.0) + (
            float(charge["ma_ms"]) * counts.get(charge["count"], 0) / session_ms * float(supply["to_cell"]))
    by_part["always"] = float(supply["always_ma"])
    return Budget(build, str(power["battery"]["name"]), float(power["battery"]["usable_mah"]), session_ms, by_part)


def rows(budgets: list[Budget], parts: list[str], stretch: str) -> list[str]:
    """A heading (`stretch`: what was measured) and a row per build: mA by part, the average, hours and sessions."""
    head = f"{'build':<26}{stretch:>9}" + "".join(f"{p:>9}" for p in parts)
    lines = [head + f"{'avg mA':>9}{'h/charge':>10}{'sessions':>10}"]
    for b in budgets:
        line = f"{b.build:<26}{b.session_ms / 3600000:>8.2f}h" + "".join(f"{b.by_part.get(p, 0):>9.2f}" for p in parts)
        line += f"{b.average_ma:>9.2f}{b.hours:>10.0f}{b.sessions:>10.0f}"
        lines.append(line)
    return lines


def table(budgets: list[Budget], idle: list[Budget]) -> str:
    parts = sorted({p for b in budgets + idle for p in b.by_part})
    lines = rows(budgets, parts, "session")
    lines.append(f"(mA from the cell, by part, averaged over the session; {SESSION_HOURS:.0f}-hour sessions; "
                 f"goal {GOAL_HOURS:.0f} h)")
    lines += rows(idle, parts, "idle")
    lines.append("(a table signed in, nobody keying: its link polls every 6 s, as while playing)")
    for b in budgets:
        lines.append(f"{b.build}: {b.battery}, {b.usable_mah:.0f} mAh usable")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Figures per build: hardware/<build>/power.toml (currents, cited), "
                                            "times: a simulated session (power_session.py).")
    parser.add_argument("--build", action="append", help="a terminal build (a hardware/ folder); default: all")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of 3 boards in the session (default 8: 3 h)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--save", type=Path, metavar="DIR", help="write each session's measurements to DIR/BUILD.json")
    where.add_argument("--load", type=Path, metavar="DIR", help="read DIR/BUILD.json instead of playing the session")
    args = parser.parse_args()
    names = args.build or builds()
    unknown = [n for n in names if n not in builds()]
    if unknown:
        print(f"power_budget: no power.toml for {', '.join(unknown)} (builds: {', '.join(builds())})",
              file=sys.stderr)
        return 2
    if args.rounds < 1:
        print("power_budget: --rounds must be at least 1", file=sys.stderr)
        return 2
    budgets: dict[str, list[Budget]] = {"": [], "-idle": []}  # file suffix -> the budgets
    for name in names:
        power = read_power(name)
        for suffix, found in budgets.items():
            path = f"{name}{suffix}.json"
            if args.load is not None:
                try:
                    measured = json.loads((args.load / path).read_text())
                except (OSError, ValueError) as e:
                    print(f"power_budget: {e}", file=sys.stderr)
                    return 2
            else:
                measured = measure(power, args.rounds, idle=bool(suffix))
                if measured.get("faults"):
                    print(f"power_budget: {name}: the terminal caught {measured['faults']} error(s)", file=sys.stderr)
                    return 1
                if args.save is not None:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / path).write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
            found.append(budget(name, power, measured))
    print(table(budgets[""], budgets["-idle"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
