"""Each board folder's manifest.py (its frozen production image) names only files that exist in the repository,
and freezes what `tenace flash` would copy: the packages the board file needs, board.py, its drivers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tenace.firmware_build import FIRMWARE, HARDWARE
from tenace.flashing.plan import DRIVERS, read_board

MANIFESTS = sorted(HARDWARE.glob("*/manifest.py"))


class Manifest:
    """MicroPython's manifest functions (tools/manifestfile.py) as a recorder: relative paths resolve against
    the manifest's folder, as the build resolves them; the port's own manifest ($(PORT_DIR)) is not ours."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.missing: list[str] = []
        self.packages: list[str] = []
        self.modules: list[str] = []
        self.required: list[str] = []
        self.external: list[str] = []
        self.run(path)

    def run(self, path: Path) -> None:
        here = path.parent
        names = {"include": lambda p, **_: self.include(here, p),
                 "package": lambda p, files=None, base_path=".", opt=None: self.package(here, p, files, base_path),
                 "module": lambda p, base_path=".", opt=None: self.module(here, p, base_path),
                 "require": lambda name, **_: self.required.append(name)}
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), names)

    def exists(self, path: Path, what: str) -> bool:
        if not path.exists():
            self.missing.append(f"{what}: {os.path.relpath(path, HARDWARE.parent)}")
        return path.exists()

    def include(self, here: Path, target: str) -> None:
        if target.startswith("$("):
            self.external.append(target)
            return
        path = here / target
        if path.is_dir():
            path = path / "manifest.py"
        if self.exists(path, "include"):
            self.run(path)

    def package(self, here: Path, name: str, files: list[str] | None, base_path: str) -> None:
        folder = here / base_path / name
        if self.exists(folder / "__init__.py", "package"):
            self.packages.append(name)
            for file in files or []:
                self.exists(folder / file, "package file")

    def module(self, here: Path, name: str, base_path: str) -> None:
        if self.exists(here / base_path / name, "module"):
            self.modules.append(name)


def test_there_is_a_manifest_for_each_board_folder() -> None:
    folders = sorted(p for p in HARDWARE.iterdir() if p.is_dir())
    assert folders and [m.parent for m in MANIFESTS] == folders


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.parent.name)
def test_manifest_refers_only_to_files_in_the_repository(path: Path) -> None:
    manifest = Manifest(path)
    assert manifest.missing == []
    assert manifest.external == ["$(PORT_DIR)/boards/manifest.py"]  # the port's defaults, as firmware/manifest.py
    assert all((FIRMWARE / name).parent == FIRMWARE for name in manifest.packages)
    assert set(manifest.required) <= set(DRIVERS)


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.parent.name)
def test_manifest_freezes_what_flash_would_copy(path: Path) -> None:
    board = read_board(path.parent)
    manifest = Manifest(path)
    assert sorted(manifest.packages) == list(board.packages)
    assert manifest.modules == ["board.py"]
    assert sorted(manifest.required) == list(board.drivers)


def test_the_recorder_finds_a_missing_file(tmp_path: Path) -> None:
    planted = tmp_path / "manifest.py"
    planted.write_text('package("tenace_wire", base_path="nowhere")\nmodule("board.py")\ninclude("../gone.py")\n')
    missing = Manifest(planted).missing
    assert len(missing) == 3
    assert [m.split(":")[0] for m in missing] == ["package", "module", "include"]
