"""tools/chip_session.py: table 1's terminal, MicroPython's stock rp2 image on an emulated RP2040 with the board around
it, plays a round by key presses against the real collector over a lossy nRF24 air; nothing lost or doubled."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from chip_fixtures import need_rp2
from PIL import Image

from conftest import TOOLS

pytestmark = pytest.mark.slow  # minutes of an emulated chip's clock on a busy machine
# The players key the pairing code once per terminal: after a reboot it signs in with the key it kept on littlefs.
PAIRED_ONCE = re.compile(r"^pairing code keyed: 1 time, 0 of them after a power cut$", re.M)


def test_a_round_on_the_emulated_rp2040_reaches_the_collector(tmp_path: Path) -> None:
    need_rp2()
    png = tmp_path / "screen.png"
    proc = subprocess.run([sys.executable, str(TOOLS / "chip_session.py"), "--boards", "3", "--loss", "100",
                           "--png", str(png)], capture_output=True, text=True, timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    found = re.search(r"^on the emulated RP2040: accepted=(\d+) stored=(\d+) lost=0 doubled=0$", out, re.M)
    assert found and int(found[1]) == int(found[2]) >= 3, out
    heap = re.search(r"^heap free at the end: (\d+) bytes$", out, re.M)
    assert heap and 50_000 < int(heap[1]) < 264 * 1024, out
    assert re.search(r"^key press to screen drawn at 125 MHz: p50 [\d.]+ ms, p99 [\d.]+ ms \(\d+ presses\)$", out,
                     re.M), out
    with Image.open(png) as image:  # the display after the last confirmed result, as saved
        assert image.size == (128 * 4, 64 * 4)
        lit = sum(image.convert("L").histogram()[129:])  # pixels brighter than half
    assert lit > 500, "the saved display is blank"
    assert PAIRED_ONCE.search(out), out


def test_power_cuts_on_the_emulated_rp2040_lose_and_double_nothing(tmp_path: Path) -> None:
    need_rp2()
    # Each accept is cut at a random instant within 30 ms of the app reading its OK, around the journal's write: a
    # cut before it has the players key the result again, one after brings it back from the journal. Each key is
    # held until the app has read it, so none is lost after a reboot. Six boards leave room for the 20 (about four
    # cuts fall on each board's accept).
    proc = subprocess.run([sys.executable, str(TOOLS / "chip_session.py"), "--boards", "6", "--loss", "100",
                           "--cuts", "20", "--seed", "7"], capture_output=True, text=True, timeout=3600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    cuts = re.search(r"^power cuts on the chip: (\d+),.*; (\d+) before the journal had the result", out, re.M)
    assert cuts and int(cuts[1]) >= 20, out
    assert 0 < int(cuts[2]) < int(cuts[1]), out  # some cuts fell before the journal's write, some after
    found = re.search(r"^on the emulated RP2040: accepted=(\d+) stored=(\d+) lost=0 doubled=0$", out, re.M)
    assert found and int(found[1]) == int(found[2]) >= 6, out
    # The event key outlives every cut (the link's state, /journal/link.state): the code is keyed before the first only.
    assert PAIRED_ONCE.search(out), out
