"""`tenace flash`: install the firmware, a board file and the device's settings on a board with mpremote."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tenace.club_key import ClubKey, club_key_path, make_club_key, read_club_key
from tenace.errors import UsageError
from tenace.flashing import device as flashing_device
from tenace.flashing.plan import BoardInfo, Plan, check_settings, find_board, make_plan, read_board
from tenace_wire.auth import CLUB_KEY_SIZE

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
console carries frames then, not a REPL.

The club key. A terminal is flashed with the laptop's club key when there is one (its settings
file gets a club= line): it then pairs so that an eavesdropper on the radio cannot find the event
key. --club-key makes the key first if the laptop has none (128 random bits, once, in a file only
you can read: $TENACE_CLUB_KEY, else club.key in your configuration folder; the command says
where). Keep that file: a terminal with another club's key cannot pair here until flashed again.
--no-club-key leaves it out (a unit you lend to another club pairs with the code alone)."""


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
    club = p.add_mutually_exclusive_group()
    club.add_argument("--club-key", action="store_true",
                      help="write the club key to the terminal, making it first if this laptop has none")
    club.add_argument("--no-club-key", action="store_true",
                      help="write no club key: the terminal pairs with the code alone")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    board = read_board(find_board(args.board))
    check_settings(board, args.terminal_id, args.channel)  # refused before the build and the device
    if args.frozen and not (board.folder / "manifest.py").exists():
        raise UsageError(f"--frozen: hardware/{board.folder.name} has no manifest.py to build an image from")
    if board.role != "terminal" and args.club_key:
        raise UsageError(f"{board.folder.name} is a base station: it takes no club key (the laptop checks the "
                         f"frames it relays)")
    if args.dry_run:
        club, note = club_key_for(board, args, make=False)
        with tempfile.TemporaryDirectory(prefix="tenace-flash-") as tmp:
            plan = make_plan(board, Path(tmp), args.terminal_id, args.channel, args.frozen, club)
            print(describe(plan, args.port, note))
        return 0
    if not args.port:
        raise UsageError("give the device's --port (e.g. /dev/ttyACM0), or --dry-run to list the files")
    club, note = club_key_for(board, args, make=True)
    if note:
        print(note)
    device = flashing_device.MpremoteDevice(args.port)
    try:
        with tempfile.TemporaryDirectory(prefix="tenace-flash-") as tmp:
            plan = make_plan(board, Path(tmp), args.terminal_id, args.channel, args.frozen, club)
            print(f"flashing {board.folder.name} ({board.role}, MicroPython {board.port}) on {args.port}")
            flashing_device.install(plan, device, say)
    finally:
        device.close()
    print(f"done: {len(plan.steps)} files on {args.port}; reset the board to start it")
    return 0


def club_key_for(board: BoardInfo, args: argparse.Namespace, make: bool) -> tuple[ClubKey | None, str]:
    """The club key to write (None: none) and a line to tell about it. With --club-key and no key yet it is made,
    unless `make` is False (the dry run writes nothing: a stand-in of the same size goes in the listing)."""
    if board.role != "terminal" or board.config is None or args.no_club_key:
        return None, ""
    path = club_key_path()
    if args.club_key and make:
        club, made = make_club_key(path)
        return club, (f"made the club key {path} (id {club.id}): keep it; every terminal flashed from now on "
                      f"carries it" if made else "")
    found = read_club_key(path)
    if found is not None:
        return found, ""
    if args.club_key:
        return ClubKey(path, bytes(CLUB_KEY_SIZE)), f"would make the club key {path} first (this laptop has none)"
    return None, (f"no club key on this laptop ({path}): the terminal will pair with the code alone; "
                  f"tenace flash --club-key makes one")


def say(line: str) -> None:
    print(line, flush=True)  # progress as it goes: a slow serial link takes a while per file


def describe(plan: Plan, port: str | None, note: str = "") -> str:
    """The dry run: every file, local path -> device path, and its size; then the settings (the club key by its
    file and id, never the key) and drivers."""
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
    if plan.club is not None:
        made = any(plan.club.key)  # all zero: the dry run's stand-in for a key --club-key would make
        settings.append(f"club key from {plan.club.path}" + (f" (id {plan.club.id})" if made else ""))
    if settings and board.config:
        lines.append(f"settings in :{board.config}: {', '.join(settings)}")
    if note:
        lines.append(note)
    if plan.frozen:
        lines.append(f"packages, board.py and drivers: in the frozen image (hardware/{board.folder.name}/manifest.py)")
    else:
        lines += [f"then: mip install {d} (micropython-lib's driver, from the network, unless :lib has it)"
                  for d in board.drivers]
    return "\n".join(lines)
