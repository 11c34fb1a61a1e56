"""`tenace terminal`: a simulated table terminal, the real firmware on MicroPython, played or scripted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tenace.commands.options import cannot_write, in_range, output_folder
from tenace.errors import UsageError
from tenace.movement import MAX_BOARDS, MAX_BOARDS_PER_ROUND, MAX_ROUNDS
from tenace.simulation.terminal.process import LANGUAGES, Options
from tenace.simulation.terminal.scripted import parse_script, run_script, write_screens

HELP = "run a table terminal's firmware in a simulator: play it from the keyboard, or script its keys"
EPILOG = """\
modes:
  tenace terminal                              play it in this window (keys: see the keypad beside it)
  tenace terminal --script KEYS --out DIR      press the keys of a script; each screen as PNG and text
  tenace terminal --headless --keys "3 OK OK"  print each screen as text (tests, pipes)

A script holds key names as on the keypad (1-9 0 C D H S NT X PASS N E S W A K Q J T + - = OK BACK
MENU UP DOWN), "!reboot" (a power cut), "!wait MS", "!offline"/"!online" (the host out of reach),
and "[name]" to also save the screen shown at that point as name.png and name.txt; # starts a comment.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("terminal", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    keys = p.add_mutually_exclusive_group()
    keys.add_argument("--script", type=Path, metavar="FILE", help="key script to press ('-': standard input)")
    keys.add_argument("--keys", metavar="WORDS", help="the key script itself, e.g. \"3 OK OK 4 S N\"")
    p.add_argument("--out", type=Path, metavar="DIR", help="where a scripted run writes its screens (PNG, text)")
    p.add_argument("--named-only", action="store_true", help="write only the screens named [name] in the script")
    p.add_argument("--headless", action="store_true", help="print the screens as text, write no file")
    p.add_argument("--scale", type=int, default=4, help="pixels per display pixel in the PNGs (default 4)")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="the terminal's language (default en)")
    p.add_argument("--journal", type=Path, metavar="DIR",
                   help="keep the terminal's journal in DIR across runs (default: a fresh one)")
    p.add_argument("--rounds", type=int, default=3, help="rounds in the collector's session (default 3)")
    p.add_argument("--boards", type=int, default=3, help="boards per round (default 3)")
    p.add_argument("--deals", action="store_true", help="the host sends hand records: leads are checked")
    p.add_argument("--traveller", action="store_true", help="the host sends each board's traveller")
    p.set_defaults(run=run)


def script_words(args: argparse.Namespace) -> list[str] | None:
    if args.keys is not None:
        return parse_script(args.keys)
    if args.script is None:
        return None
    try:
        text = sys.stdin.read() if str(args.script) == "-" else args.script.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"--script {args.script} is not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"--script {args.script}: cannot read it: {e.strerror or e}") from None
    return parse_script(text.removeprefix("\ufeff"))


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.scale <= 16:
        raise UsageError("--scale is 1 to 16")
    in_range("--rounds", args.rounds, 1, MAX_ROUNDS)
    in_range("--boards", args.boards, 1, MAX_BOARDS_PER_ROUND)
    if args.rounds * args.boards > MAX_BOARDS:
        raise UsageError(f"--rounds {args.rounds} of --boards {args.boards} make {args.rounds * args.boards} "
                         f"boards; a terminal numbers boards up to {MAX_BOARDS}")
    if args.journal is not None:
        output_folder("--journal", args.journal)
    if args.out is not None:
        output_folder("--out", args.out)
    options = Options(lang=args.lang, storage=args.journal, rounds=args.rounds, boards=args.boards,
                      deals=args.deals, traveller=args.traveller)
    words = script_words(args)
    if words is None:
        if args.headless or args.out:
            raise UsageError("--headless and --out need keys: --script FILE or --keys WORDS")
        from tenace.simulation.terminal.interactive import run_interactive  # termios: only where a window is played

        return run_interactive(options)
    result = run_script(words, options)
    if args.headless or args.out is None:
        for screen in result.screens:
            sys.stdout.write(screen.heading() + "\n" + screen.text.render())
    if args.out is not None:
        try:
            written = write_screens(result, args.out, named_only=args.named_only, scale=args.scale)
        except OSError as e:
            raise cannot_write("--out", args.out, e) from None
        pngs = sum(1 for p in written if p.suffix == ".png")
        print(f"{len(result.screens)} screens; {pngs} PNG files in {args.out}", file=sys.stderr)
    for line in result.output:
        print(f"terminal: {line}", file=sys.stderr)
    return 0
