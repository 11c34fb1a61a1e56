"""tenace flash: a board flashed for real into MicroPython's unix port driven by mpremote through a pseudo-terminal,
the dry-run listing of every board folder, and each refusal."""

from __future__ import annotations

import os
import pty
import subprocess
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import tenace

from tenace.firmware_build import FIRMWARE, HARDWARE, board_folders, toolchain
from tenace.flashing import device as flashing_device
from tenace.flashing import plan as flashing_plan
from tenace.flashing.plan import make_plan, read_board


@pytest.fixture
def unix_device(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A MicroPython "device" whose file system is a folder: the unix port's REPL on the master side of a pty,
    the slave's path (/dev/pts/N) handed to mpremote as a serial port. `-i` keeps the REPL up although its
    stdin is not a terminal; the slave is raw, as a USB CDC port is (no \\n -> \\r\\n)."""
    root = tmp_path / "device"
    root.mkdir()
    master, slave = pty.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    proc = subprocess.Popen([str(toolchain("micropython")), "-i"], stdin=master, stdout=master,
                            stderr=subprocess.DEVNULL, cwd=root, start_new_session=True)
    os.close(master)
    try:
        yield port, root
    finally:
        proc.kill()
        proc.wait()
        os.close(slave)


def micropython_in(root: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` on the unix port with the device's folder as its root (current directory, first on sys.path)."""
    return subprocess.run([str(toolchain("micropython")), "-c", code], cwd=root, capture_output=True, text=True,
                          timeout=30)


@pytest.mark.slow
def test_flash_writes_every_file_to_a_unix_port_device(unix_device: tuple[str, Path], capsys, tmp_path) -> None:
    port, root = unix_device
    # A module copied earlier as source would hide its new .mpy: the flash removes it.
    (root / "tenace_wire").mkdir()
    (root / "tenace_wire" / "frame.py").write_text("raise ImportError('the old source')\n")
    code, out, err = tenace(capsys, "flash", "base-esp32-espnow", "--port", port)
    assert code == 0, err
    plan = make_plan(read_board(HARDWARE / "base-esp32-espnow"), tmp_path / "build", None, None)
    for step in plan.steps:
        assert (root / step.device).read_bytes() == step.data, step.device
    assert not (root / "tenace_wire" / "frame.py").exists()
    assert "removed the old :tenace_wire/frame.py" in out
    # One progress line a file, then the end; the unix port is not the board's: said, not refused.
    assert sum(line.startswith("[") for line in out.splitlines()) == len(plan.steps) == 31
    assert "[31/31] firmware/tenace_radio/base_main.py (copied) -> :main.py" in out
    assert "the device runs MicroPython's linux port and base-esp32-espnow is for esp32" in out
    assert out.splitlines()[-1] == f"done: 31 files on {port}; reset the board to start it"
    # What landed works there: the compiled packages load, main.py finds board.py and refuses it for being
    # another port's, in its own words.
    loaded = micropython_in(root, "import tenace_wire.frame as f; print(f.__file__)")
    assert loaded.stdout.strip() == "tenace_wire/frame.mpy", loaded.stderr
    started = micropython_in(root, "import main; main.main()")
    assert "OSError: board.py is for the esp32 port, this is linux" in started.stdout + started.stderr


@pytest.mark.slow
def test_a_terminal_flashed_again_gets_its_new_settings(unix_device: tuple[str, Path], capsys, monkeypatch,
                                                         tmp_path) -> None:
    port, root = unix_device
    monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
    folder = terminal_board(tmp_path / "hardware", "espnow")
    (root / "lib").mkdir()
    (root / "lib" / "ssd1306.mpy").write_bytes(b"M")  # installed before: mip (and its network) not needed
    code, out, err = tenace(capsys, "flash", folder.name, "--port", port, "--terminal-id", "9")
    assert code == 0, err
    assert "micropython-lib's ssd1306 is already in :lib" in out
    # No --channel: the transport's own is written, so the device says which it is on.
    assert (root / "terminal.cfg").read_text() == f"# written by tenace flash for {folder.name}\nid=9\nchannel=1\n"
    (root / "board.py").write_text("PORT = 'changed'\n")
    code, _, err = tenace(capsys, "flash", folder.name, "--port", port, "--terminal-id", "12", "--channel", "11")
    assert code == 0, err
    assert (root / "board.py").read_bytes() == (folder / "board.py").read_bytes()
    assert (root / "terminal.cfg").read_text().splitlines()[1:] == ["id=12", "channel=11"]
    assert (root / "tenace_terminal" / "app.mpy").stat().st_size > 1000


def test_a_port_where_no_repl_answers_is_refused(capsys, monkeypatch) -> None:
    monkeypatch.setattr(flashing_device, "REPL_TIMEOUT", 0.5)
    master, slave = pty.openpty()  # nobody on the other side: a relaying base station is as silent
    port = os.ttyname(slave)
    try:
        code, out, err = tenace(capsys, "flash", "base-pico-nrf24", "--port", port)
    finally:
        os.close(master)
        os.close(slave)
    assert code == 2
    assert err.startswith(f"tenace flash: no MicroPython REPL answers on {port}: ") and err.count("\n") == 1
    assert out == ""


def test_a_port_that_cannot_be_opened_is_refused(capsys, tmp_path) -> None:
    not_a_port = tmp_path / "notes.txt"
    not_a_port.write_text("a file, not a serial port\n")
    code, _, err = tenace(capsys, "flash", "base-pico-nrf24", "--port", str(not_a_port))
    assert code == 2
    assert err.startswith(f"tenace flash: cannot open {not_a_port}: ") and err.count("\n") == 1


class FakeDevice:
    """The device seam: records what is written; a write of `fail_on` fails as mpremote would report it."""

    def __init__(self, lib: list[str] | None = None, fail_on: str | None = None) -> None:
        self.files: dict[str, bytes] = {}
        self.folders: set[str] = set()
        self.lib = lib
        self.fail_on = fail_on
        self.drivers: list[str] = []
        self.closed = False

    def platform(self) -> str:
        return "rp2"

    def listdir(self, folder: str) -> list[str] | None:
        if folder == "lib":
            return self.lib
        return sorted(p.rpartition("/")[2] for p in self.files if p.rpartition("/")[0] == folder) \
            if folder in self.folders else None

    def mkdir(self, folder: str) -> None:
        self.folders.add(folder)

    def remove(self, path: str) -> None:
        del self.files[path]

    def write(self, path: str, data: bytes) -> None:
        if path == self.fail_on:
            raise flashing_device.DeviceError(f"writing :{path} failed: [Errno 28] ENOSPC")
        self.files[path] = data

    def install_driver(self, name: str) -> None:
        self.drivers.append(name)

    def close(self) -> None:
        self.closed = True


def with_fake(monkeypatch, fake: FakeDevice) -> list[str]:
    ports: list[str] = []

    def connect(port: str) -> FakeDevice:
        ports.append(port)
        return fake

    monkeypatch.setattr(flashing_device, "MpremoteDevice", connect)
    return ports


@pytest.mark.slow
def test_mpremote_failing_midway_names_the_file(capsys, monkeypatch) -> None:
    fake = FakeDevice(lib=[], fail_on="tenace_wire/frame.mpy")
    with_fake(monkeypatch, fake)
    code, _, err = tenace(capsys, "flash", "base-pico-nrf24", "--port", "/dev/ttyACM0")
    assert code == 2
    assert err == ("tenace flash: writing :tenace_wire/frame.mpy failed: [Errno 28] ENOSPC; the device has part of "
                   "the firmware: run tenace flash again\n")
    assert "tenace_wire/crc16.mpy" in fake.files and "board.py" not in fake.files  # stopped there
    assert fake.closed and fake.drivers == []


@pytest.mark.slow
def test_the_boards_micropython_lib_driver_is_installed_unless_there(capsys, monkeypatch) -> None:
    fake = FakeDevice(lib=[])
    ports = with_fake(monkeypatch, fake)
    code, out, err = tenace(capsys, "flash", "base-pico-nrf24", "--port", "/dev/ttyACM0")
    assert code == 0, err
    assert ports == ["/dev/ttyACM0"] and fake.drivers == ["nrf24l01"]
    assert "warning" not in out  # rp2 on rp2
    assert "terminal.cfg" not in fake.files  # its board.py reads none
    fake = FakeDevice(lib=["nrf24l01.mpy"])
    with_fake(monkeypatch, fake)
    assert tenace(capsys, "flash", "base-pico-nrf24", "--port", "/dev/ttyACM0")[0] == 0
    assert fake.drivers == []
    # The ESP32 base station's radio is built in: nothing from micropython-lib.
    fake = FakeDevice(lib=None)
    with_fake(monkeypatch, fake)
    assert tenace(capsys, "flash", "base-esp32-espnow", "--port", "/dev/ttyUSB0")[0] == 0
    assert fake.drivers == []


@pytest.mark.slow
@pytest.mark.parametrize("folder", board_folders(), ids=lambda p: p.name)
def test_dry_run_lists_every_file_of_each_board(folder: Path, capsys) -> None:
    board = read_board(folder)
    extra = ["--terminal-id", "3"] if board.role == "terminal" else []
    code, out, err = tenace(capsys, "flash", folder.name, "--dry-run", *extra)
    assert code == 0, err
    if folder.name.startswith("base-"):
        assert board.role == "base station" and board.packages == ("tenace_radio", "tenace_wire")
    if folder.name.startswith("terminal-"):
        assert board.role == "terminal"
        assert {"tenace_terminal", "tenace_rules", "tenace_wire"} <= set(board.packages)
    listed = [line.split(" -> :")[1].split()[0] for line in out.splitlines() if " -> :" in line]
    modules = [src.relative_to(FIRMWARE).with_suffix(".mpy").as_posix() for package in board.packages
               for src in sorted((FIRMWARE / package).rglob("*.py"))]
    assert set(modules) <= set(listed)
    ends = ["board.py", "main.py", *([board.config] if board.config else [])]
    assert listed[-len(ends):] == ends
    assert f"hardware/{folder.name}/board.py (copied) -> :board.py" in out
    assert sum(line.startswith(f"{len(listed)} files, ") for line in out.splitlines()) == 1


def terminal_board(hardware: Path, radio: str) -> Path:
    """A terminal board folder of the shape the reference terminals have (the app and a radio transport)."""
    folder = hardware / f"terminal-test-{radio}"
    folder.mkdir(parents=True)
    (folder / "board.py").write_text(
        f'from tenace_radio.{radio}_transport import CHANNEL\n\nPORT = "rp2"\nCONFIG = "/terminal.cfg"\n\n\n'
        "def main():\n"
        f"    from ssd1306 import SSD1306_I2C\n    from tenace_terminal.app import App\n")
    return folder


@pytest.mark.slow
def test_a_terminal_needs_its_id_and_gets_the_app(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
    terminal_board(tmp_path / "hardware", "nrf24")
    code, _, err = tenace(capsys, "flash", "terminal-test-nrf24", "--dry-run")
    assert code == 2 and err == ("tenace flash: terminal-test-nrf24 is a terminal: give its --terminal-id "
                                 "(1-65534), one per terminal\n")
    assert tenace(capsys, "flash", "terminal-test-nrf24", "--dry-run", "--terminal-id", "0")[2] == \
        "tenace flash: --terminal-id 0 is out of range: 1-65534\n"
    fake = FakeDevice(lib=[])
    with_fake(monkeypatch, fake)
    code, _, err = tenace(capsys, "flash", "terminal-test-nrf24", "--port", "/dev/ttyACM0", "--terminal-id", "65534")
    assert code == 0, err
    assert {"tenace_terminal/app.mpy", "tenace_terminal/lang/en.txt", "tenace_rules/score.mpy"} <= set(fake.files)
    assert fake.files["terminal.cfg"].decode().splitlines()[1:] == ["id=65534", "channel=76"]
    assert fake.drivers == ["ssd1306"]


@pytest.mark.parametrize(("board", "args", "message"), [
    ("nope", ["--dry-run"], "unknown board 'nope'; the boards are: "),
    ("base-pico-nrf24", [], "give the device's --port (e.g. /dev/ttyACM0), or --dry-run to list the files"),
    ("base-pico-nrf24", ["--port", "/dev/no-such-port"], "no port /dev/no-such-port: is the board plugged in?"),
    ("terminal-test-nrf24", ["--dry-run", "--terminal-id", "1", "--channel", "126"],
     "--channel 126 is out of range for nRF24L01+: 0-125"),
    ("terminal-test-espnow", ["--dry-run", "--terminal-id", "1", "--channel", "0"],
     "--channel 0 is out of range for ESP-NOW Wi-Fi: 1-13"),
    ("terminal-test-espnow", ["--dry-run", "--terminal-id", "1", "--channel", "14"],
     "--channel 14 is out of range for ESP-NOW Wi-Fi: 1-13"),
    ("terminal-test-espnow", ["--dry-run", "--terminal-id", "65535"], "--terminal-id 65535 is out of range: 1-65534"),
    ("base-pico-nrf24", ["--dry-run", "--terminal-id", "4"], "base-pico-nrf24 is a base station: it has no"),
    ("base-pico-nrf24", ["--dry-run", "--channel", "5"], "base-pico-nrf24's board.py reads no settings file"),
])
def test_refusals_are_one_line(board: str, args: list[str], message: str, capsys, monkeypatch, tmp_path) -> None:
    if board.startswith("terminal-test-"):
        monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
        terminal_board(tmp_path / "hardware", board.rpartition("-")[2])
    code, out, err = tenace(capsys, "flash", board, *args)
    assert code == 2 and out == ""
    assert err.startswith(f"tenace flash: {message}") and err.count("\n") == 1, err


def test_unknown_board_names_the_valid_ones(capsys) -> None:
    err = tenace(capsys, "flash", "pico", "--dry-run")[2]
    for folder in board_folders():
        assert folder.name in err


def test_help(capsys) -> None:
    code, out, _ = tenace(capsys, "flash", "--help")
    assert code == 0 and "--dry-run" in out and "--terminal-id" in out and "terminal.cfg" in out


def test_frozen_writes_only_what_the_image_cannot_hold(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(flashing_plan, "HARDWARE", tmp_path / "hardware")
    folder = terminal_board(tmp_path / "hardware", "espnow")
    code, _, err = tenace(capsys, "flash", folder.name, "--dry-run", "--frozen", "--terminal-id", "2")
    assert code == 2
    assert err == f"tenace flash: --frozen: hardware/{folder.name} has no manifest.py to build an image from\n"
    (folder / "manifest.py").write_text('module("board.py")\n')
    fake = FakeDevice(lib=[])
    fake.folders.add("tenace_wire")  # left from a flash without --frozen: it would hide the frozen package
    with_fake(monkeypatch, fake)
    code, out, err = tenace(capsys, "flash", folder.name, "--port", "/dev/ttyUSB0", "--frozen", "--terminal-id", "2")
    assert code == 0, err
    catalogues = sorted(f"lang/{p.name}" for p in (FIRMWARE / "tenace_terminal" / "lang").glob("*.txt"))
    assert catalogues and sorted(fake.files) == [*catalogues, "main.py", "terminal.cfg"]
    assert fake.drivers == []  # ssd1306 is in the image
    assert "warning: :tenace_wire on the file system hides the frozen tenace_wire" in out
    assert "tenace_terminal" not in "".join(fake.folders)  # a folder of that name would hide the frozen package
