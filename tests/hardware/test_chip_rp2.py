"""MicroPython's stock rp2 image on an emulated RP2040 (rp2040js, tools/chip.py): the REPL over its USB serial, and
littlefs on its flash through the W25Q16 model (tools/rp2040/flash_chip.js) surviving a reset."""

from __future__ import annotations

from pathlib import Path

import pytest
from chip import Chip
from chip_fixtures import need_rp2

pytestmark = pytest.mark.slow  # each boots the emulated chip: seconds of CPU


def test_the_repl_answers_over_usb_serial() -> None:
    need_rp2()
    with Chip() as chip:
        chip.boot()
        assert chip.eval("1+1") == "2"
        free = int(chip.eval("__import__('gc').mem_free()"))
        assert 150_000 < free < 264 * 1024  # the port's own heap in the 264 KB of SRAM


def test_files_written_on_the_chip_survive_a_reset(tmp_path: Path) -> None:
    need_rp2()
    image = tmp_path / "fs.img"
    with Chip() as chip:
        chip.boot()
        # A blank flash: the port's _boot.py made littlefs with mkfs, which only works if erases and programs land.
        assert chip.eval("__import__('os').statvfs('/')[2]") == "352"
        chip.exec("f = open('/journal.bin', 'wb'); f.write(bytes(range(256)) * 20); f.close()")
        programs, erases = chip.wear()
        assert programs > 0 and erases > 0
        chip.dump_fs(image)
    with Chip(fs=image) as chip:  # the power cycled: a new chip with the same flash
        chip.boot()
        assert chip.eval("open('/journal.bin', 'rb').read() == bytes(range(256)) * 20") == "True"
        assert chip.wear() == (0, 0)  # mounting read it: nothing written at boot
