"""One Pico terminal on the emulated RP2040 plays a round at table 1 against the real collector.

    .venv/bin/python tools/chip_session.py [--seed 5] [--loss 100] [--boards 3] [--png screen.png] [--out DIR]

MicroPython's stock rp2 image (../shared/firmware/rp2) runs in rp2040js (tools/chip.py) with the files `tenace flash`
writes on its littlefs (tools/chip_image.py) and the board around it (tools/chip_board.py): keys pressed on its GPIO
matrix, its SSD1306 on I2C, its nRF24L01+ on SPI on a lossy air (--loss per mille of packets and of ACKs) to a base
station that relays to `tenace collect` through the simulator's virtual radio. Prints what the table accepted
against what the event file stored, the heap free on the chip, each key press's time to the next frame drawn on the
display in the chip's clock (125 MHz), the flash wear, and how often the players keyed the pairing code (once per
terminal: after a power cut it signs in with the key it kept). --png saves the display after the last result was
confirmed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from chip import Chip, ChipError, rp2_problem
from chip_board import PicoBoard, key_position
from chip_image import device_files, filesystem_image

from tenace.collector.link_key import link_key
from tenace.firmware_build import SIM_DIR, build, flat
from tenace.movement import mitchell
from tenace.simulation.faults import FaultRates
from tenace.simulation.radio import VirtualRadio
from tenace.simulation.session.event_setup import create_simulated_event
from tenace.simulation.session.outcome import compare, read_accepted
from tenace.simulation.session.processes import CollectorProcess
from tenace.simulation.terminal.screen import screen_text, write_png

HERE = Path(__file__).resolve().parent
log = logging.getLogger("chip_session")
TABLE = 1
WAIT_MS = 5000  # of the chip's clock: the longest a key is held before the app reads it, or let go before it settles
PAUSE_MS = 1100  # a key dropped in a pause of the keys (App.KEY_PAUSE_MS after a screen to read): wait it out
CUT_WINDOW_MS = 30  # the power goes at a random instant this long after the app has read an accept's OK: the journal
# is written 11 to 16 ms after it (and the link's state 30 to 50 ms after), in the chip's clock
SLICE_MS = 5  # the chip runs this long between two looks at its serial output and the base station's relay
LIMIT_S = float(os.environ.get("CHIP_LIMIT_S", "300"))  # of the chip's clock


@dataclass
class Outcome:
    accepted: list[str] = field(default_factory=list)  # "round board result" lines
    heap: list[int] = field(default_factory=list)  # gc.mem_free() after a collection, at each batch of keys
    done: str = ""
    latencies_ms: list[float] = field(default_factory=list)
    frame: bytes = b""
    wear: tuple[int, int] = (0, 0)
    chip_s: float = 0.0
    cuts: int = 0
    rekeyed: int = 0  # cuts before the journal had the result: the players keyed it again
    paired: list[int] = field(default_factory=list)  # the power-on (0: the first) of each time the code was keyed


def session_image(out: Path) -> Path:
    """The terminal's files as flashed, and the session's driver with the simulator's scripted player."""
    files = device_files(TABLE)
    extra = build(out / "extra", [*flat(HERE / "rp2040", ["chip_terminal.py"]),
                                  *flat(SIM_DIR, ["scripted_player.py", "accepted_log.py"])])
    for mpy in sorted(extra.glob("*.mpy")):
        files[mpy.name] = mpy.read_bytes()
    return filesystem_image(files, out / "fs.img")


def wait_for(chip: Chip, board: PicoBoard, words: tuple[str, ...], backlog: list[str]) -> str:
    """Run the chip until it prints a line starting with one of `words`; the word. Its other lines go to `backlog`."""
    spent = 0
    while spent < WAIT_MS:
        chip.run_ms(SLICE_MS)
        board.pump()
        spent += SLICE_MS
        found = ""
        for line in chip.lines():
            word = line.partition(" ")[0]
            if word in words and not found:
                found = word
                if word == "DONE":
                    backlog.append(line)
            else:
                backlog.append(line)
        if found:
            return found
    raise ChipError(f"no {'/'.join(words)} from the chip in {WAIT_MS} ms of its clock (a key held or let go)")


def press(chip: Chip, board: PicoBoard, key: str, backlog: list[str]) -> tuple[int, bool]:
    """Press `key` on the matrix until the app has read it, let go until the matrix has seen it let go; the chip's
    clock when it went down, and whether the app took it (False: dropped in a pause of the keys)."""
    row, col = key_position(key)
    chip.command(f"key {row} {col} 1")
    at = chip.nanos
    word = wait_for(chip, board, ("GOT", "DROP"), backlog)
    chip.command(f"key {row} {col} 0")
    wait_for(chip, board, ("UP", "DONE"), backlog)  # (after the session's last key, the loop is over)
    return at, word == "GOT"


def has_code(keys: list[str], code: str) -> bool:
    """Whether the pairing code's digits are among `keys`, one after the other."""
    digits = list(code)
    return any(keys[at:at + len(digits)] == digits for at in range(len(keys) - len(digits) + 1))


def latencies(presses: list[int], draws: list[int]) -> list[float]:
    """Each press's time (ms) to the end of the first frame sent to the display after it, before the next press."""
    out = []
    for i, at in enumerate(presses):
        until = presses[i + 1] if i + 1 < len(presses) else float("inf")
        drawn = next((d for d in draws if at < d < until), None)
        if drawn is not None:
            out.append((drawn - at) / 1e6)
    return out


class Table:
    """The emulated terminal at the table and the board around it; `cut()` is a power cut at this instant."""

    def __init__(self, port: int, code: str, seed: int, loss: int, boards: int, image: Path) -> None:
        self.code, self.seed, self.boards = code, seed, boards
        self.image = image
        self.board = PicoBoard(port, seed, loss)
        self.outcome = Outcome()
        self.accepted: dict[str, str] = {}  # "round board" -> the result line
        self.presses: list[int] = []
        self.backlog: list[str] = []  # the chip's lines printed while a key was pressed, not yet looked at
        self.cut_keys: list[str] | None = None  # the contract screen's keys whose accept was cut, until the next keys
        self.chip = self.power_on(image)

    def power_on(self, image: Path) -> Chip:
        chip = Chip(fs=image, board=self.board.harness_map(), on_line=self.board.on_line).start()
        chip.boot(limit_ms=5000)
        chip.start_exec(f"import chip_terminal\nchip_terminal.main({self.code!r}, {self.seed}, {self.boards}, {TABLE})")
        return chip

    def cut(self) -> None:
        """The power goes: the flash as it is now, a new chip (and a new nRF24, reset) booting from it."""
        self.close_chip()
        self.board.power_cycle_radio()
        self.outcome.cuts += 1
        self.chip = self.power_on(self.image)

    def keyed(self, keys: list[str]) -> bool:
        """Press `keys` one after the other; False when one was dropped (a screen to read came: the rest were for
        the one before)."""
        for key in keys:
            at, taken = press(self.chip, self.board, key, self.backlog)
            self.presses.append(at)
            if not taken:
                self.wait_out_the_pause()
                return False
        return True

    def cut_in_accept(self, rng: random.Random) -> bool:
        """Press the accept's OK and cut the power at a random instant once the app has read it; False (no cut) when
        it was dropped."""
        chip, board = self.chip, self.board
        row, col = key_position("OK")
        chip.command(f"key {row} {col} 1")
        self.presses.append(chip.nanos)
        if wait_for(chip, board, ("GOT", "DROP"), self.backlog) == "DROP":
            chip.command(f"key {row} {col} 0")
            wait_for(chip, board, ("UP",), self.backlog)
            self.wait_out_the_pause()
            return False
        chip.run_ms(rng.randrange(CUT_WINDOW_MS * 1000) / 1000)  # the power goes at a random instant
        log.debug("power cut %d at %.3f s of the chip's clock", self.outcome.cuts + 1, chip.nanos / 1e9)
        self.cut()
        # The old chip's keys are gone with it; the new one's player names its own.
        self.backlog = [line for line in self.backlog if not line.startswith("KEYS ")]
        return True

    def wait_out_the_pause(self) -> None:
        """A key was dropped in a pause of the keys, which only ends once keys stop: none pressed for PAUSE_MS."""
        for _ in range(PAUSE_MS // SLICE_MS):
            self.chip.run_ms(SLICE_MS)
            self.board.pump()

    def close_chip(self) -> None:
        chip = self.chip
        self.chip.dump_fs(self.image)
        wear = chip.wear()
        self.outcome.wear = (self.outcome.wear[0] + wear[0], self.outcome.wear[1] + wear[1])
        self.outcome.chip_s += chip.nanos / 1e9
        self.outcome.latencies_ms += latencies(self.presses, self.board.draws)
        self.presses.clear()
        self.board.draws.clear()
        chip.close()

    def play(self, cuts: int) -> Outcome:
        """Until `boards` results are accepted and acknowledged; `cuts` power cuts, each at a random instant in the
        CUT_WINDOW_MS after the app has read the OK that accepts a result (the summary screen's), while it journals
        it."""
        outcome, board = self.outcome, self.board
        rng = random.Random(self.seed)
        while not outcome.done:
            chip = self.chip
            if outcome.chip_s + chip.nanos / 1e9 > LIMIT_S:
                raise ChipError(f"the table did not finish in {LIMIT_S} s of the chip's clock")
            chip.run_ms(SLICE_MS)
            board.pump()
            lines, self.backlog = self.backlog + chip.lines(), []
            for line in lines:
                log.debug("chip at %.3f s: %s", chip.nanos / 1e9, line)
                word, _, rest = line.partition(" ")
                if word == "KEYS":
                    screen, *keys = rest.split()
                    if has_code(keys, self.code):
                        outcome.paired.append(outcome.cuts)
                    # The last OK of a result keyed (the contract screen's) or of one keyed before a reboot (the
                    # summary screen's) is the opponents' accept: the app journals the result.
                    if self.cut_keys is not None and screen in ("contract", "summary"):  # was it keyed again?
                        outcome.rekeyed += [screen, *keys] == self.cut_keys
                        self.cut_keys = None
                    accept = outcome.cuts < cuts and screen in ("contract", "summary") and keys[-1:] == ["OK"]
                    if accept:
                        self.cut_keys = [screen, *keys] if screen == "contract" else None
                    if self.keyed(keys[:-1] if accept else keys) and accept and self.cut_in_accept(rng):
                        break
                    chip.type(b"k")
                elif word == "ACCEPTED":
                    slot, result = rest.split(" ", 2)[:2], rest.split(" ", 2)[2]
                    self.accepted[" ".join(slot)] = result
                    outcome.frame = bytes(board.oled.ram)
                elif word == "HEAP":
                    outcome.heap.append(int(rest))
                elif word == "DONE":
                    outcome.done = rest
            serial = self.chip.serial
            ended = 0 <= serial.find(b"\x04") < serial.find(b"\n") % (len(serial) + 1)
            if ended and not outcome.done and not self.backlog:
                # The raw REPL's end of output, with no line left before it to read: the program raised.
                raise ChipError("the session stopped on the chip: " + self.chip.serial.decode("utf-8", "replace"))
        outcome.frame = outcome.frame or bytes(board.oled.ram)
        outcome.accepted = [f"{slot} {result}" for slot, result in self.accepted.items()]
        return outcome

    def close(self) -> None:
        board = self.board
        log.debug("screen:\n%s", "\n".join(screen_text(bytes(board.oled.ram)).lines))
        log.debug("nRF24 model: sent=%d received=%d errors=%s; air packets=%d lost=%d; relayed up=%d; pin moves %d",
                  board.chip.sent, board.chip.received, board.chip.errors[:5], board.air.packets, board.air.lost,
                  board.up, board.pin_moves)
        if self.chip.proc is not None:
            self.close_chip()
        board.close()


def play(port: int, code: str, seed: int, loss: int, boards: int, image: Path, cuts: int) -> Outcome:
    """The table's session on the chip, until `boards` results are accepted and acknowledged."""
    table = Table(port, code, seed, loss, boards, image)
    try:
        return table.play(cuts)
    finally:
        table.close()


async def run(args: argparse.Namespace, work: Path) -> int:
    movement = mitchell(3, args.boards, 1)
    db = work / "event.sqlite"
    with closing(create_simulated_event(db, "Emulated RP2040", {"A": movement})) as conn:
        code = link_key(conn).code
    image = session_image(work)
    collector = CollectorProcess(db, work, ["--lead", "warn"])
    radio = VirtualRadio(FaultRates(), args.seed)
    try:
        radio.collector_port = await collector.start()
        port = await radio.start()
        began = time.monotonic()
        outcome = await asyncio.to_thread(play, port, code, args.seed, args.loss, args.boards, image, args.cuts)
        wall = time.monotonic() - began
    finally:
        collector.stop()
        await radio.close()
    storage = work / "terminals"
    (storage / str(TABLE)).mkdir(parents=True, exist_ok=True)
    (storage / str(TABLE) / "accepted.txt").write_text("".join(line + "\n" for line in outcome.accepted))
    with closing(sqlite3.connect(db)) as conn:
        comparison = compare(conn, read_accepted(storage, {TABLE: ("A", TABLE)}), {"A": movement})
    if args.png:
        write_png(outcome.frame, args.png)
    lat = sorted(outcome.latencies_ms)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else 0.0
    print(f"table {TABLE}: {outcome.done}; {outcome.chip_s:.1f} s of the chip's clock in {wall:.0f} s")
    print(f"on the emulated RP2040: accepted={comparison.accepted} stored={comparison.stored} "
          f"lost={comparison.lost} doubled={comparison.doubled}")
    print(f"heap free at the end: {outcome.done.rpartition('heap=')[2]} bytes")
    print(f"heap free at the lowest (after a collection, at each batch of keys): {min(outcome.heap, default=0)} bytes")
    print(f"key press to screen drawn at 125 MHz: p50 {statistics.median(lat) if lat else 0:.1f} ms, "
          f"p99 {p99:.1f} ms ({len(lat)} presses)")
    print(f"flash wear: {outcome.wear[0]} page programs, {outcome.wear[1]} sector erases")
    keyed = len(outcome.paired)
    print(f"pairing code keyed: {keyed} {'time' if keyed == 1 else 'times'}, "
          f"{sum(1 for power_on in outcome.paired if power_on)} of them after a power cut")
    if args.cuts:
        print(f"power cuts on the chip: {outcome.cuts}, each at a random instant within "
              f"{CUT_WINDOW_MS} ms of the app reading a result's OK; {outcome.rekeyed} before the journal had the "
              f"result (keyed again)")
    return 0 if comparison.lost == 0 and comparison.doubled == 0 and comparison.accepted >= args.boards else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--loss", type=int, default=100, help="per mille of packets and ACKs lost on the air")
    parser.add_argument("--boards", type=int, default=3, help="results the table plays (one round)")
    parser.add_argument("--cuts", type=int, default=0, help="power cuts (chip resets) while it journals")
    parser.add_argument("--png", type=Path, help="save the display after the last confirmed result")
    parser.add_argument("--out", type=Path, help="keep the event file and the image here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if os.environ.get("CHIP_DEBUG") else logging.WARNING)
    if not 0 <= args.loss < 1000 or not 1 <= args.boards <= 12 or args.cuts < 0:
        print("chip_session: --loss is per mille (0-999), --boards 1-12, --cuts 0 or more", file=sys.stderr)
        return 2
    problem = rp2_problem()
    if problem:
        print(f"chip_session: {problem}", file=sys.stderr)
        return 2
    try:
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            return asyncio.run(run(args, args.out))
        with tempfile.TemporaryDirectory() as tmp:
            return asyncio.run(run(args, Path(tmp)))
    except ChipError as e:
        print(f"chip_session: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
