"""The emulated Pico terminal's filesystem image: littlefs at RPI_PICO's offset with what `tenace flash` writes.

The files are `tenace flash terminal-pico-nrf24`'s plan (tenace.flashing.plan: the packages compiled, board.py,
main.py, terminal.cfg), and micropython-lib's drivers where `mip install` puts them (/lib, compiled): nrf24l01 from
the vendored copy in ../shared, ssd1306 from build/drivers (tools/setup-env). The littlefs geometry is the rp2 port's
_boot.py's: 352 blocks of 4 KB, 256-byte programs.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from littlefs import LittleFS

from tenace.club_key import ClubKey
from tenace.firmware_build import build, flat
from tenace.flashing.plan import find_board, make_plan, read_board

ROOT = Path(__file__).resolve().parent.parent
BOARD = "terminal-pico-nrf24"
FS_BLOCK = 4096
FS_BLOCKS = 352
PROG_SIZE = 256  # the rp2 port's _boot.py: vfs.VfsLfs2(bdev, progsize=256)
READ_SIZE = 32  # MicroPython's VfsLfs2 default
LOOKAHEAD = 32
NRF24_DRIVER = ROOT.parent / "shared" / "vendor" / "micropython-lib" / "nrf24l01" / "nrf24l01.py"
SSD1306_DRIVER = ROOT / "build" / "drivers" / "ssd1306.py"


def device_files(terminal_id: int, club: ClubKey | None = None) -> dict[str, bytes]:
    """Every file a flashed terminal holds, by its path on the device."""
    with tempfile.TemporaryDirectory() as tmp:
        plan = make_plan(read_board(find_board(BOARD)), Path(tmp) / "build", terminal_id, None, club=club)
        files = {step.device: step.data for step in plan.steps}
        drivers = Path(tmp) / "lib"
        build(drivers, [*flat(NRF24_DRIVER.parent, [NRF24_DRIVER.name]), *flat(SSD1306_DRIVER.parent,
                                                                              [SSD1306_DRIVER.name])])
        for mpy in sorted(drivers.glob("*.mpy")):
            files[f"lib/{mpy.name}"] = mpy.read_bytes()
    return files


def filesystem_image(files: dict[str, bytes], out: Path) -> Path:
    """A littlefs image of `files` (device path: contents), FS_BLOCKS blocks: what the harness puts at 0xA0000."""
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=PROG_SIZE, read_size=READ_SIZE,
                  lookahead_size=LOOKAHEAD)
    for path, data in sorted(files.items()):
        parent = path.rpartition("/")[0]
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    out.write_bytes(bytes(fs.context.buffer))
    return out
