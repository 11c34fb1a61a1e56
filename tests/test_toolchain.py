"""The gates on the code itself: mpy-cross compiles the firmware and each board file, pyright checks the firmware
against each device port's micropython stubs, a board file against its own port's and the simulator's MicroPython
programs against the unix port's, only board files import the
hardware, ruff lints the whole tree, mypy checks the host package strictly."""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

from tenace.firmware_build import HARDWARE, SIM_DIR, board_folders, build, package_tree

from conftest import FIRMWARE, ROOT, venv_tool

STUB_PORTS = [line.split()[0] for line in (ROOT / "tools" / "stubs.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
# The simulator's programs run on the unix port (sockets, select, the host's files): the firmware and the board
# files are checked against the ports of the devices.
SIM_PORT = "unix"
PORTS = [port for port in STUB_PORTS if port != SIM_PORT]
CPYTHON_ONLY = ("typing", "dataclasses", "enum", "abc", "pathlib", "logging", "functools", "itertools")
# Modules of the hardware itself: machine (pins, buses) and those only some ports have. Only a board file
# (hardware/<board>/board.py) imports them; the firmware gets what they build (DESIGN hard rule 6).
HARDWARE_MODULES = ("machine", "network", "espnow", "rp2", "esp", "esp32")
BOARDS = board_folders()


def board_port(folder: Path) -> str:
    """The port a board file declares in its module constant PORT (as sys.platform names it: rp2, esp32)."""
    for node in ast.parse((folder / "board.py").read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["PORT"]
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return node.value.value
    raise AssertionError(f"{folder / 'board.py'} declares no PORT = \"<port>\"")


def hardware_imports(files: list[Path]) -> list[str]:
    """Every import of a HARDWARE_MODULES module in `files`, at any depth (a function's own imports too)."""
    found = []
    for src in files:
        for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"), str(src))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            found += [f"{src}:{node.lineno}: {name}" for name in names if name.split(".")[0] in HARDWARE_MODULES]
    return found


def run(*cmd: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_mpy_cross_compiles_every_firmware_file(tmp_path: Path) -> None:
    sources = package_tree(FIRMWARE)
    assert sources
    build(tmp_path, sources)  # Failure, naming the file, if one does not compile
    modules = [rel for src, rel in sources if src.suffix == ".py"]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.mpy")) == sorted(
        rel.with_suffix(".mpy") for rel in modules)
    # The message catalogues go as they are.
    catalogues = [(src, rel) for src, rel in sources if src.suffix == ".txt"]
    assert sorted(rel.name for _, rel in catalogues) == ["en.txt", "he.txt", "lv.txt", "sk.txt", "sr.txt"]
    assert all((tmp_path / rel).read_bytes() == src.read_bytes() for src, rel in catalogues)


def test_the_manifest_freezes_every_firmware_package() -> None:
    # Run as MicroPython's build runs it (tools/manifestfile.py): include() and package() are its names.
    included: list[str] = []
    frozen: list[str] = []
    manifest = FIRMWARE / "manifest.py"
    exec(compile(manifest.read_text(encoding="utf-8"), str(manifest), "exec"),
         {"include": included.append, "package": lambda name, **_: frozen.append(name)})
    assert included == ["$(PORT_DIR)/boards/manifest.py"]
    packages = sorted(p.name for p in FIRMWARE.iterdir() if (p / "__init__.py").is_file())
    assert sorted(frozen) == packages and len(packages) == 4
    for name in frozen:
        assert (FIRMWARE / name / "__init__.py").is_file()


def test_mpy_cross_compiles_every_board_file(tmp_path: Path) -> None:
    # Every folder under hardware/ is a board's, so none is left out for want of its board.py.
    assert BOARDS and sorted(p for p in HARDWARE.iterdir() if p.is_dir()) == BOARDS
    for board in BOARDS:
        out = tmp_path / board.name
        build(out, [(board / "board.py", Path("board.py"))])  # the name it has on the device
        assert sorted(p.name for p in out.iterdir()) == ["board.mpy"]


def test_only_board_files_import_the_hardware(tmp_path: Path) -> None:
    assert hardware_imports(sorted(FIRMWARE.rglob("*.py"))) == []
    # Each board file does import it (or the scan would see nothing anywhere).
    assert all(hardware_imports([board / "board.py"]) for board in BOARDS)
    # The scan finds a planted import in any form, also inside a function, and not a mere mention.
    planted = tmp_path / "planted.py"
    planted.write_text("import machine\nimport os, rp2\n# machine.UART\ndef f():\n    from machine import Pin\n")
    assert hardware_imports([planted]) == [f"{planted}:1: machine", f"{planted}:2: rp2", f"{planted}:5: machine"]


def test_firmware_imports_no_cpython_only_module() -> None:
    for src in [*FIRMWARE.rglob("*.py"), *(board / "board.py" for board in BOARDS)]:
        for number, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from"):
                assert words[1].split(".")[0] not in CPYTHON_ONLY, f"{src}:{number}: {line.strip()}"


def pyright_errors(port: str, name: str, include: Path, exclude: tuple[Path, ...] = (),
                   beside: tuple[Path, ...] = ()) -> tuple[list[str], int]:
    """pyright's errors on the files under `include` against `port`'s stubs, and how many files it analysed;
    `beside`: folders whose modules they import by bare name, as the firmware's packages are."""
    stubs = ROOT / "build" / "typings" / port
    assert (stubs / "machine.pyi").exists(), f"no stubs for {port}: run tools/setup-env"
    # pyright takes only paths relative to its config file (in build/).
    config_file = ROOT / "build" / f"pyright-{name}.json"
    config = {
        "include": [f"../{include.relative_to(ROOT)}"],
        "exclude": [f"../{path.relative_to(ROOT)}" for path in exclude],
        # A board file imports the firmware's packages as the device has them.
        "extraPaths": ["../firmware", *(f"../{path.relative_to(ROOT)}" for path in beside)],
        "typeshedPath": f"typings/{port}",
        "stubPath": f"typings/{port}",
        "pythonVersion": "3.11",
        "typeCheckingMode": "standard",
        "reportMissingModuleSource": False,
    }
    config_file.write_text(json.dumps(config))
    proc = run(venv_tool("pyright"), "-p", config_file, "--outputjson")
    report = json.loads(proc.stdout)
    problems = [f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
                for d in report["generalDiagnostics"] if d["severity"] == "error"]
    return problems, report["summary"]["filesAnalyzed"]


@pytest.mark.slow
@pytest.mark.parametrize("port", PORTS)
def test_firmware_type_checks_against_port_stubs(port: str) -> None:
    # MicroPython's build runs manifest.py, with include() and package(): not firmware code.
    problems, analysed = pyright_errors(port, port, FIRMWARE, exclude=(FIRMWARE / "manifest.py",))
    assert not problems, "\n".join(problems)
    assert analysed >= len([src for src, _ in package_tree(FIRMWARE) if src.suffix == ".py"])


@pytest.mark.slow
@pytest.mark.parametrize("board", [board.name for board in BOARDS])
def test_board_file_type_checks_against_its_port_stubs(board: str) -> None:
    # Only its own port's: an ESP32 board file may use espnow, which the rp2 stubs rightly lack.
    port = board_port(HARDWARE / board)
    assert port in PORTS, f"{board} is for {port}, a port tools/stubs.txt has no stubs for"
    problems, analysed = pyright_errors(port, f"board-{board}", HARDWARE / board)
    assert not problems, "\n".join(problems)
    assert analysed >= 1


def test_simulator_programs_type_check_against_unix_port_stubs() -> None:
    # They import one another by bare name (MICROPYPATH is their folder); host_end imports the host's collector
    # only under CPython, a narrow ignore says so.
    assert SIM_PORT in STUB_PORTS, f"tools/stubs.txt has no stubs for {SIM_PORT}"
    problems, analysed = pyright_errors(SIM_PORT, "simulation", SIM_DIR, beside=(SIM_DIR,))
    assert not problems, "\n".join(problems)
    assert analysed >= len(list(SIM_DIR.glob("*.py")))


def test_ruff_lints_the_whole_tree() -> None:
    proc = run(venv_tool("ruff"), "check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_checks_the_host_package() -> None:
    proc = run(venv_tool("mypy"), "--no-incremental")
    assert proc.returncode == 0, proc.stdout + proc.stderr
