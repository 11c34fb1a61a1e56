"""Refresh the README's screenshots: run the browser tests and the terminal's pixel simulator (they save
build/screenshots/), copy to docs/screenshots/."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the README shows, as the browser tests save them: the public pages on a phone (test_serve_browser.py), the
# director's console on a laptop and a printed table card (test_console_evening.py); the terminal's main screens
# (the pixel simulator, `tenace terminal`, pressing the keys of TERMINAL_SCRIPT).
TERMINAL_SHOTS = ("terminal-contract.png", "terminal-summary.png", "terminal-traveller.png", "terminal-move.png")
SHOTS = ("rankings-390x844.png", "traveller-390x844.png", "console-setup-1366x768.png", "console-grid-1366x768.png",
         "table-card-print.png", *TERMINAL_SHOTS)
TERMINAL_SCRIPT = ROOT / "tools" / "readme-screens.keys"
# The collector sends travellers (the traveller screen) and plays rounds of 2 boards (the move after the second).
TERMINAL_OPTIONS = ("--traveller", "--boards", "2")
MAX_BYTES = 200_000  # a README image a phone on a club's Wi-Fi loads at once
TESTS = ("tests/host/test_serve_browser.py", "tests/host/test_console_evening.py")


class Refused(Exception):
    """One line for the user, exit code 2."""


def run_tests() -> float:
    """Run the browser tests (CI=true: a missing chromium fails them rather than skipping); when they started."""
    started = time.time()
    env = {**os.environ, "CI": "true"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=ROOT,
                          env=env, check=False)
    if done.returncode != 0:
        raise Refused(f"the browser tests failed (pytest exit code {done.returncode}): the screenshots are unchanged")
    return started


def run_terminal(build: Path) -> None:
    """The terminal's screens the README shows, as the pixel simulator draws them, saved into `build`."""
    done = subprocess.run([sys.executable, "-m", "tenace", "terminal", *TERMINAL_OPTIONS, "--script",
                           str(TERMINAL_SCRIPT), "--out", str(build), "--named-only"], cwd=ROOT, check=False,
                          capture_output=True, text=True)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Refused(f"the terminal simulator failed on {TERMINAL_SCRIPT.name} ({said}): "
                      "the screenshots are unchanged")


def copy_shots(build: Path, docs: Path, newer_than: float | None) -> list[Path]:
    """Every screenshot checked (there, fresh when `newer_than`, small enough), then all copied: none or all."""
    for name in SHOTS:
        shot = build / name
        if not shot.is_file():
            raise Refused(f"{shot} is missing: run the browser tests ({', '.join(TESTS)})")
        if newer_than is not None and shot.stat().st_mtime < newer_than:
            raise Refused(f"{shot} was not made by this run of the tests")
        size = shot.stat().st_size
        if size > MAX_BYTES:
            raise Refused(f"{shot} is {size // 1000} KB, more than the {MAX_BYTES // 1000} KB a README image may be")
        if shot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            raise Refused(f"{shot} is not a PNG image")
    docs.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in SHOTS:
        shutil.copyfile(build / name, docs / name)
        copied.append(docs / name)
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/screenshots.py", description=__doc__, epilog=(
        "The tests write build/screenshots/ only (CI never touches the tracked docs/); this copies "
        f"{', '.join(SHOTS)} once each is checked: made by this run, a PNG, at most {MAX_BYTES // 1000} KB. "
        "Then commit docs/screenshots/."))
    parser.add_argument("--no-run", action="store_true", help="copy the screenshots the tests saved last, without "
                        "running them")
    parser.add_argument("--build", type=Path, default=ROOT / "build" / "screenshots", help=argparse.SUPPRESS)
    parser.add_argument("--docs", type=Path, default=ROOT / "docs" / "screenshots", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        started = None
        if not args.no_run:
            started = run_tests()
            run_terminal(args.build)
        copied = copy_shots(args.build, args.docs, started)
    except Refused as e:
        print(f"screenshots: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"screenshots: cannot copy: {e.strerror or e}", file=sys.stderr)
        return 2
    for path in copied:
        print(f"{path}: {path.stat().st_size // 1000} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
