"""`tenace flash`: install the firmware, a board file and the device's settings on a board with mpremote."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tenace.errors import UsageError
from tenace.flashing import device as flashing_device
from tenace.flashing.plan import Plan, check_settings, find_board, make_plan, read_board

HELP = "install the firmware on a terminal or base station over USB (mpremote)"
EPILOG = """\
examples:
  tenace flash terminal-pico-nrf24 --port /dev/ttyACM0 --terminal-id 7
  tenace flash terminal-esp32c3-espnow --port /dev/ttyUSB0 --terminal-id 3 --channel 6
  tenace flash base-pico-nrf24 --dry-run          every file and where it goes; no device needed

BOARD is a folder under hardware/. The firmware packages the board file needs (found from its
imports) go compiled (.mpy) in their folders, the board file as :board.py, main.py as :main.py,
and the terminal's id and radio channel in the settings file its board.py declares (CONFIG, e.g.
:terminal.cfg with id=7 and channel=76 a line each: hardware/README.md). A micropython-lib driver
the board imports (nrf24l01, ssd1306) is installed with mip, which needs the network. With
--frozen (the board runs an image built from its manifest.py, hardware/README.md) only main.py,
the settings and the packages' data files (:lang/*.txt) are written. Reset the board afterwards
to start it. A base station that is relaying must be stopped first (its stop button): its
console carries frames then, not a REPL."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("flash", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("board", metavar="BOARD", help="a board folder under hardware/, e.g. base-pico-nrf24")
    p.add_argument("--port", metavar="P", help="the device's serial port: /dev/ttyACM0, /dev/ttyUSB0, COM3")
    p.add_argument("--terminal-id", type=int, metavar="N", help="a terminal's id, unique at the event (1-65534)")
    p.add_argument("--channel", type=int, metavar="C", help="the event's radio channel, for a board that reads "
                   "one (ESP-NOW 1-13, nRF24 0-125; default: the firmware's)")
    p.add_argument("--frozen", action="store_true",
                   help="the board runs an image built from its manifest.py: write only main.py, the settings and "
                        "data files")
    p.add_argument("--dry-run", action="store_true", help="list what would be written where; no device needed")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    board = read_board(find_board(args.board))
    check_settings(board, args.terminal_id, args.channel)  # refused before the build and the device
    if args.frozen and not (board.folder / "manifest.py").exists():
        raise UsageError(f"--frozen: hardware/{board.folder.name} has no manifest.py to build an image from")
    if args.dry_run:
        with tempfile.TemporaryDirectory(prefix="tenace-flash-") as tmp:
            print(describe(make_plan(board, Path(tmp), args.terminal_id, args.channel, args.frozen), args.port))
        return 0
    if not args.port:
        raise UsageError("give the device's --port (e.g. /dev/ttyACM0), or --dry-run to list the files")
    device = flashing_device.MpremoteDevice(args.port)
    try:
        with tempfile.TemporaryDirectory(prefix="tenace-flash-") as tmp:
            plan = make_plan(board, Path(tmp), args.terminal_id, args.channel, args.frozen)
            print(f"flashing {board.folder.name} ({board.role}, MicroPython {board.port}) on {args.port}")
            flashing_device.install(plan, device, say)
    finally:
        device.close()
    print(f"done: {len(plan.steps)} files on {args.port}; reset the board to start it")
    return 0


def say(line: str) -> None:
    print(line, flush=True)  # progress as it goes: a slow serial link takes a while per file


def describe(plan: Plan, port: str | None) -> str:
    """The dry run: every file, local path -> device path, and its size; then the settings and drivers."""
    board = plan.board
    where = port or "the device"
    lines = [f"{board.folder.name}: {board.role}, MicroPython {board.port} port; "
             f"packages {', '.join(board.packages)}; would write to {where}:"]
    lines += [f"  {step.origin()} -> :{step.device}  {len(step.data)} bytes" for step in plan.steps]
    total = sum(len(step.data) for step in plan.steps)
    lines.append(f"{len(plan.steps)} files, {total} bytes")
    settings = [f"terminal id {plan.terminal_id}"] if plan.terminal_id is not None else []
    if plan.channel is not None and board.radio is not None:
        settings.append(f"{board.radio.name} channel {plan.channel}")
    if settings and board.config:
        lines.append(f"settings in :{board.config}: {', '.join(settings)}")
    if plan.frozen:
        lines.append(f"packages, board.py and drivers: in the frozen image (hardware/{board.folder.name}/manifest.py)")
    else:
        lines += [f"then: mip install {d} (micropython-lib's driver, from the network, unless :lib has it)"
                  for d in board.drivers]
    return "\n".join(lines)
