"""What `tenace flash` writes to a device for one board folder: every file, its device path and size.

Derived from the board file, never listed per board: the firmware packages are those its imports reach
(transitively, package by package), its role (terminal or base station) is whether they include the
terminal app, its radio (and so the channel's range) is the transport module it imports.
"""

from __future__ import annotations

import ast
import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path

from tenace.club_key import ClubKey
from tenace.errors import UsageError
from tenace.firmware_build import FIRMWARE, FIRMWARE_PACKAGES, HARDWARE, Source, board_folders, build, package_tree
from tenace_wire.frame_types import MAX_TERMINAL

log = logging.getLogger(__name__)

# The generic main.py: imports board, checks its PORT against sys.platform, returns board.main(). It names no
# board and no role, so it serves every board; a board folder with a main.py of its own uses that instead.
GENERIC_MAIN = Path("tenace_radio") / "base_main.py"
# micropython-lib packages the board files use: installed with `mip` (they are not in the firmware, nor built
# into a port); the same names as the manifests' require(). Any other import outside firmware/ is the port's.
DRIVERS = ("nrf24l01", "ssd1306")


@dataclass(frozen=True)
class Radio:
    """A radio transport a board file may import, and the channels its event can be on."""

    name: str
    module: str  # the firmware module that wraps it
    low: int
    high: int

    def default(self) -> int:
        """The transport's own CHANNEL constant: what the firmware uses when no channel is configured."""
        path = FIRMWARE / (self.module.replace(".", "/") + ".py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CHANNEL"
                                                    for t in node.targets)):
                value = node.value.args[0] if isinstance(node.value, ast.Call) else node.value  # const(76)
                if isinstance(value, ast.Constant) and isinstance(value.value, int):
                    return value.value
        raise RuntimeError(f"{path} has no CHANNEL = const(N)")


RADIOS = (
    Radio("ESP-NOW Wi-Fi", "tenace_radio.espnow_transport", 1, 13),  # 1-13: legal in the EU and UK
    Radio("nRF24L01+", "tenace_radio.nrf24_transport", 0, 125),  # 2.400 + n MHz, as the chip's RF_CH register
)


@dataclass(frozen=True)
class Step:
    """One file to write: from `local` (on the laptop, or generated) to `device` (a path from the device's root)."""

    local: Path | None  # the source on the laptop; None: generated
    device: str
    data: bytes
    how: str  # "compiled" (mpy-cross), "copied" or "generated"

    def origin(self) -> str:
        """The source as the user knows it: relative to the checkout, and how it becomes the device's file."""
        if self.local is None:
            return "(generated)"
        with contextlib.suppress(ValueError):
            return f"{self.local.relative_to(FIRMWARE.parent)} ({self.how})"
        return f"{self.local} ({self.how})"


@dataclass(frozen=True)
class BoardInfo:
    """What the board file says about itself, read without running it."""

    folder: Path
    port: str  # MicroPython's sys.platform: esp32, rp2
    packages: tuple[str, ...]  # the firmware packages it needs, transitively
    radio: Radio | None
    drivers: tuple[str, ...]  # micropython-lib packages it imports (installed with mip)
    config: str | None  # the settings file it reads (its CONFIG = "/terminal.cfg"), as a device path; None: none

    @property
    def role(self) -> str:
        return "terminal" if "tenace_terminal" in self.packages else "base station"


@dataclass(frozen=True)
class Plan:
    """Everything one flash does, in order."""

    board: BoardInfo
    steps: tuple[Step, ...]
    terminal_id: int | None
    channel: int | None
    frozen: bool = False  # the packages, board.py and drivers are in the device's image (manifest.py)
    club: ClubKey | None = None  # the club key written in the settings file (tenace.club_key)

    def folders(self) -> list[str]:
        """The device folders the steps need, parents first."""
        seen: dict[str, None] = {}
        for step in self.steps:
            parts = step.device.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                seen["/".join(parts[:i])] = None
        return list(seen)


def imports_of(path: Path) -> set[str]:
    """Every module a source file imports, anywhere in it (board files import inside functions on purpose)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def needed_packages(start: set[str], root: Path = FIRMWARE) -> tuple[str, ...]:
    """The firmware packages that the modules `start` reach, following every import of every module of each
    package reached (package by package: a whole package ships, its dynamic imports of screens included)."""
    todo = [name.split(".")[0] for name in start if name.split(".")[0] in FIRMWARE_PACKAGES]
    found: set[str] = set()
    while todo:
        package = todo.pop()
        if package in found:
            continue
        found.add(package)
        for src in sorted((root / package).rglob("*.py")):
            todo.extend(n.split(".")[0] for n in imports_of(src) if n.split(".")[0] in FIRMWARE_PACKAGES)
    return tuple(sorted(found))


def text_constant(path: Path, name: str) -> str | None:
    """A board file's top-level NAME = "..." (PORT, CONFIG: hardware/README.md), read without running it."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return node.value.value
    return None


def board_port(path: Path) -> str:
    """The board file's PORT = "...", the MicroPython port it is for (every board file declares it)."""
    port = text_constant(path, "PORT")
    if port is None:
        raise UsageError(f"{path} declares no PORT = \"...\" (hardware/README.md)")
    return port


def find_board(name: str, hardware: Path | None = None) -> Path:
    """The board folder `name` under hardware/, or a one-line refusal naming the valid ones."""
    hardware = hardware or HARDWARE
    folders = board_folders(hardware)
    names = [p.name for p in folders]
    if not folders:
        raise UsageError(f"no board folders in {hardware}: tenace flash runs from a checkout of the repository")
    if name not in names:
        raise UsageError(f"unknown board {name!r}; the boards are: {', '.join(names)}")
    return hardware / name


def read_board(folder: Path) -> BoardInfo:
    """The board's port, packages, radio and drivers, from its board.py (and main.py, if it has its own)."""
    board_file = folder / "board.py"
    imported = imports_of(board_file) | imports_of(main_source(folder))
    radios = [r for r in RADIOS if r.module in imported]
    if len(radios) > 1:
        raise UsageError(f"{board_file} imports two radio transports: {', '.join(r.module for r in radios)}")
    config = text_constant(board_file, "CONFIG")
    return BoardInfo(folder=folder, port=board_port(board_file), packages=needed_packages(imported),
                     radio=radios[0] if radios else None,
                     drivers=tuple(sorted(n for n in imported if n in DRIVERS)),
                     config=config.lstrip("/") if config else None)


def main_source(folder: Path) -> Path:
    """The board folder's own main.py if it has one, else the generic one."""
    own = folder / "main.py"
    return own if own.exists() else FIRMWARE / GENERIC_MAIN


def config_text(board: BoardInfo, terminal_id: int | None, channel: int | None, club: ClubKey | None = None) -> str:
    """The settings file the board reads: `name=value` a line (id, channel, club key), parsed by
    tenace_terminal.settings_file; a line that is not one of its names (this first one) is skipped there."""
    lines = [f"# written by tenace flash for {board.folder.name}"]
    if terminal_id is not None:
        lines.append(f"id={terminal_id}")
    if channel is not None:
        lines.append(f"channel={channel}")
    if club is not None:
        lines.append(f"club={club.key.hex()}")
    return "\n".join(lines) + "\n"


def check_settings(board: BoardInfo, terminal_id: int | None, channel: int | None) -> int | None:
    """Refuse an id or channel the board cannot use or would not read; returns the channel to write (the
    transport's default when none is given, written anyway so the device says which channel it is on)."""
    name = board.folder.name
    if board.role == "terminal":
        if terminal_id is None:
            raise UsageError(f"{name} is a terminal: give its --terminal-id (1-{MAX_TERMINAL}), one per terminal")
        if not 1 <= terminal_id <= MAX_TERMINAL:
            raise UsageError(f"--terminal-id {terminal_id} is out of range: 1-{MAX_TERMINAL}")
    elif terminal_id is not None:
        raise UsageError(f"{name} is a base station: it has no --terminal-id")
    if board.config is None:
        if terminal_id is not None or channel is not None:
            raise UsageError(f"{name}'s board.py reads no settings file (it declares no CONFIG = \"...\"): "
                             f"give no --terminal-id or --channel")
        return None
    if board.radio is None:
        if channel is not None:
            raise UsageError(f"{name} has no radio: it has no --channel")
        return None
    if channel is None:
        return board.radio.default()
    if not board.radio.low <= channel <= board.radio.high:
        raise UsageError(f"--channel {channel} is out of range for {board.radio.name}: "
                         f"{board.radio.low}-{board.radio.high}")
    return channel


def make_plan(board: BoardInfo, build_dir: Path, terminal_id: int | None, channel: int | None,
              frozen: bool = False, club: ClubKey | None = None) -> Plan:
    """Build the board's firmware packages into `build_dir` (the one firmware build) and list every write.

    `frozen`: the device runs an image built from the board's manifest.py, with the packages, board.py and the
    drivers in it; only what cannot be frozen is written: main.py, the settings and the packages' data files.
    """
    channel = check_settings(board, terminal_id, channel)
    sources: list[Source] = [s for s in package_tree(FIRMWARE) if s[1].parts[0] in board.packages]
    steps = []
    if frozen:
        # Not in their package's folder: a folder named like a frozen package, first on sys.path, would be
        # taken for the package and hide it; tenace_terminal/lang/en.txt goes to :lang/en.txt (catalogue.folder).
        steps += [Step(src, Path(*rel.parts[1:]).as_posix(), src.read_bytes(), "copied")
                  for src, rel in sources if rel.suffix != ".py"]
    else:
        build(build_dir, sources)
        for src, rel in sources:
            compiled = rel.suffix == ".py"
            built = build_dir / (rel.with_suffix(".mpy") if compiled else rel)
            steps.append(Step(src, built.relative_to(build_dir).as_posix(), built.read_bytes(),
                              "compiled" if compiled else "copied"))
        # board.py stays source (hardware/README.md): the one file a club may edit on the device (a pin moved).
        board_file = board.folder / "board.py"
        steps.append(Step(board_file, "board.py", board_file.read_bytes(), "copied"))
    main = main_source(board.folder)  # main.py must be source: MicroPython runs no main.mpy
    steps.append(Step(main, "main.py", main.read_bytes(), "copied"))
    if club is not None and (board.config is None or board.role != "terminal"):
        raise UsageError(f"{board.folder.name} takes no club key: only a terminal's settings file holds one")
    if board.config is not None:
        steps.append(Step(None, board.config, config_text(board, terminal_id, channel, club).encode(), "generated"))
    log.info("flash plan for %s: %d files", board.folder.name, len(steps))
    return Plan(board, tuple(steps), terminal_id, channel, frozen, club)
