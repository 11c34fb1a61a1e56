"""A session on emulated hardware reaches the collector: each table's terminal is its board file's build() on the
MicroPython unix port, over emulated buses (SSD1306 and PCF8574 models on I2C, a key matrix pressed by a scripted
player, a battery ADC) and its own radio driver's calls (ESP-NOW or nRF24L01) carried by the simulator's virtual
radio to a real `tenace collect`. The event file must hold every result the tables accepted, once.

It reuses tenace sim's pieces (the event's set-up, the collector process, the virtual radio, the comparison of
what the tables accepted with the store); only the terminals differ from `tenace sim`'s.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from board_trees import TERMINALS, micropython_command, mpy_tree

from tenace.collector.link_key import link_key
from tenace.movement import mitchell
from tenace.simulation.faults import FaultRates
from tenace.simulation.radio import VirtualRadio
from tenace.simulation.session.event_setup import create_simulated_event
from tenace.simulation.session.outcome import compare, read_accepted
from tenace.simulation.session.processes import CollectorProcess
from tenace.store import current_results

pytestmark = pytest.mark.slow  # every test here takes seconds, or its module fixture does

SEED = 5
# A terminal process's heap, most of it the firmware's code (the unix port keeps it in the heap; a device runs it
# from flash). With the status reports and the club key it fails at 210 KB and passed at 222 KB (182 KB before
# both). Declared so that it runs 5 % above that 222: 312 KB, run in 3/4 (234 KB).
HEAP_KB = 312
# The Pico's build runs micropython-lib's real nrf24l01 driver on chip models (its own and the base station's that
# relays to the virtual radio) where a fake of the driver's API stood: it failed at 264 KB (out of memory, then the
# time-out) and passed at 300 KB, not bisected further. Declared apart: 4/3 of 300, run in 3/4 (300 KB).
HEAP_KB_BY_TERMINAL = {"terminal-pico-nrf24": 400}
TIMEOUT_S = 600  # the terminals give up first (emulated_terminal._TIMEOUT_MS) and say where they were
DONE = re.compile(r"^DONE (\d+) keys=(\d+) presses=(\d+) faults=(\d+)$", re.M)
PANEL = re.compile(r"^PANEL frames=(\d+) errors=(\d+) same=(\d) lit=(\d+) expander=(\w+)$", re.M)


async def session(tmp_path: Path, boards: dict[int, str]) -> tuple[Path, Path, dict[int, str]]:
    """Play section A's Mitchell (3 tables, 2 rounds of 2 boards), table t on the board file boards[t]; returns
    the event file, the terminals' folder and each terminal process's output."""
    movement = mitchell(3, 2, 2)
    db = tmp_path / "event.sqlite"
    with closing(create_simulated_event(db, "Emulated hardware", {"A": movement})) as conn:
        code = link_key(conn).code
    storage = tmp_path / "terminals"
    storage.mkdir()
    trees = {name: mpy_tree(tmp_path / name, name) for name in set(boards.values())}
    collector = CollectorProcess(db, tmp_path, ["--lead", "warn"])
    radio = VirtualRadio(FaultRates(), SEED)
    procs: dict[int, asyncio.subprocess.Process] = {}
    try:
        radio.collector_port = await collector.start()
        port = await radio.start()
        for table, name in boards.items():  # terminal id = table number, as tenace sim numbers section A
            heap_kb = HEAP_KB_BY_TERMINAL.get(name, HEAP_KB) * 3 // 4
            command, env = micropython_command(trees[name], heap_kb, "emulated_terminal", f"port={port}",
                                               f"seed={SEED}", f"code={code}", f"dir={storage}",
                                               f"terminal={table}", f"seat=A{table}")
            procs[table] = await asyncio.create_subprocess_exec(*command, cwd=trees[name], env=env,
                                                                stdout=asyncio.subprocess.PIPE,
                                                                stderr=asyncio.subprocess.STDOUT)
        outputs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs.values())), TIMEOUT_S)
        return db, storage, {t: out.decode("utf-8", "replace") for t, (out, _) in zip(procs, outputs, strict=True)}
    finally:
        for p in procs.values():
            if p.returncode is None:
                p.kill()
                await p.wait()
        collector.stop()
        await radio.close()


def test_a_session_on_emulated_hardware_reaches_the_collector(tmp_path: Path) -> None:
    boards = {1: TERMINALS[0], 2: TERMINALS[1], 3: TERMINALS[0]}  # both builds in one event, as a mixed test bench
    db, storage, outputs = asyncio.run(session(tmp_path, boards))
    for table, out in outputs.items():
        done = DONE.search(out)
        assert done and int(done[1]) == table, out
        keys, presses, faults = int(done[2]), int(done[3]), int(done[4])
        assert faults == 0 and keys == presses > 20, out  # every key the player meant went through the matrix
        panel = PANEL.search(out)
        assert panel, out
        frames, errors, same, lit, expander = panel.groups()
        # The SSD1306 model understood every byte, and its RAM is what the app drew last.
        assert int(errors) == 0 and same == "1" and int(frames) > keys // 2 and int(lit) > 0, out
        assert expander == ("0" if boards[table] == TERMINALS[0] else "none"), out
    seats = {t: ("A", t) for t in boards}
    accepted = read_accepted(storage, seats)
    assert len(accepted) == 12, accepted  # 3 tables x 2 rounds x 2 boards
    with closing(sqlite3.connect(db)) as conn:
        comparison = compare(conn, accepted, {"A": mitchell(3, 2, 2)})
        assert comparison.ok and comparison.stored == 12 and comparison.lost == 0, comparison.line
        by_terminal = {v.table for v in current_results(conn) if v.source == "terminal"}
    assert by_terminal == {1, 2, 3}  # each build's results arrived: ESP-NOW's and the nRF24's
