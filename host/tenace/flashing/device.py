"""Writing a flash plan to a MicroPython device through mpremote's serial transport (its Python API)."""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from tenace.errors import UsageError
from tenace.flashing.plan import Plan

log = logging.getLogger(__name__)

Say = Callable[[str], None]
REPL_TIMEOUT = 10.0  # seconds to wait for the raw REPL's banner (mpremote's own default)
# A serial read gives up after this: on a pty, mpremote reads without asking what is waiting, and a silent
# device would block it for ever (its time-outs are checked between reads).
READ_TIMEOUT = 0.5


class Device(Protocol):
    """The few file operations a flash needs: mpremote's transport for a real device, a fake in the tests."""

    def platform(self) -> str: ...
    def listdir(self, folder: str) -> list[str] | None: ...  # None: no such folder
    def mkdir(self, folder: str) -> None: ...
    def remove(self, path: str) -> None: ...
    def write(self, path: str, data: bytes) -> None: ...
    def install_driver(self, name: str) -> None: ...
    def close(self) -> None: ...


class DeviceError(Exception):
    """A device operation failed (mpremote's TransportError, a serial or OS error), said in one line."""


class MpremoteDevice:
    """A device on a serial port (or a pyserial URL) in mpremote's raw REPL."""

    def __init__(self, port: str) -> None:
        from mpremote.transport import TransportError

        self.port = port
        # serial.SerialException is an OSError; mpremote's own errors are TransportError.
        self._errors: tuple[type[BaseException], ...] = (TransportError, OSError)
        if "://" not in port and not Path(port).exists():
            raise UsageError(f"no port {port}: is the board plugged in? (Linux: /dev/ttyACM0 or /dev/ttyUSB0)")
        self._connect()

    def _connect(self) -> None:
        from mpremote.transport_serial import SerialTransport

        # mpremote prints what it read when it gives up: kept out of the user's terminal, said in one line.
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                self.transport = SerialTransport(self.port, timeout=READ_TIMEOUT)
            except self._errors as e:
                raise UsageError(f"cannot open {self.port}: {e} (busy in another program? no permission?)") from None
            try:
                # No soft reset: it would start main.py again on some ports, and the unix port exits on it.
                self.transport.enter_raw_repl(soft_reset=False, timeout_overall=REPL_TIMEOUT)
            except self._errors:
                self.transport.close()
                raise UsageError(f"no MicroPython REPL answers on {self.port}: if a base station is relaying, stop "
                                 f"it (its stop button) and try again") from None

    def _call(self, what: str, action: Callable[[], object]) -> object:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                return action()
        except self._errors as e:
            detail = str(e).strip().splitlines()[-1:] or [type(e).__name__]  # a device traceback's last line
            raise DeviceError(f"{what} failed: {detail[0]}") from None

    def platform(self) -> str:
        return str(self._call("reading sys.platform", lambda: self.transport.eval("__import__('sys').platform")))

    def listdir(self, folder: str) -> list[str] | None:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                entries = self.transport.fs_listdir(folder)
        except OSError as e:
            if e.errno == errno.ENOENT:
                return None
            raise DeviceError(f"listing :{folder} failed: {e}") from None
        except self._errors as e:
            raise DeviceError(f"listing :{folder} failed: {e}") from None
        return [entry.name for entry in entries]

    def mkdir(self, folder: str) -> None:
        self._call(f"making the folder :{folder}", lambda: self.transport.fs_mkdir(folder))

    def remove(self, path: str) -> None:
        self._call(f"removing :{path}", lambda: self.transport.fs_rmfile(path))

    def write(self, path: str, data: bytes) -> None:
        self._call(f"writing :{path}", lambda: self.transport.fs_writefile(path, data))

    def install_driver(self, name: str) -> None:
        # mip needs the network and its CLI is mpremote's public interface for it: the port is handed over.
        self.transport.exit_raw_repl()
        self.transport.close()
        proc = subprocess.run([sys.executable, "-m", "mpremote", "connect", self.port, "mip", "install", name],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-1]
            raise DeviceError(f"mip install {name} (micropython-lib, needs the network): {last}")
        self._connect()  # for what follows

    def close(self) -> None:
        with contextlib.suppress(*self._errors):
            self.transport.exit_raw_repl()
        with contextlib.suppress(*self._errors):
            self.transport.close()


def install(plan: Plan, device: Device, say: Say) -> None:
    """Write every step of `plan` to `device`, a progress line each; a failure names the file it was writing."""
    try:
        _install(plan, device, say)
    except DeviceError as e:
        raise UsageError(f"{e}; the device has part of the firmware: run tenace flash again") from None


def _install(plan: Plan, device: Device, say: Say) -> None:
    board = plan.board
    platform = device.platform()
    if platform != board.port:
        say(f"warning: the device runs MicroPython's {platform} port and {board.folder.name} is for {board.port}: "
            f"its main.py will refuse to start")
    if plan.frozen:
        for package in board.packages:
            if device.listdir(package) is not None:
                say(f"warning: :{package} on the file system hides the frozen {package}: remove it "
                    f"(mpremote rm -r :{package})")
    for folder in plan.folders():
        if device.listdir(folder) is None:
            device.mkdir(folder)
    # A module copied earlier as source would shadow its .mpy (MicroPython imports the .py first): removed.
    listings: dict[str, list[str]] = {}
    total = len(plan.steps)
    for number, step in enumerate(plan.steps, 1):
        say(f"[{number}/{total}] {step.origin()} -> :{step.device} ({len(step.data)} bytes)")
        device.write(step.device, step.data)
        if step.device.endswith(".mpy"):
            folder, _, name = step.device.rpartition("/")
            if folder not in listings:
                listings[folder] = device.listdir(folder) or []
            source = name[:-len(".mpy")] + ".py"
            if source in listings[folder]:
                say(f"    removed the old :{folder}/{source}, which would hide it")
                device.remove(f"{folder}/{source}")
    for driver in () if plan.frozen else board.drivers:
        lib = device.listdir("lib") or []
        if f"{driver}.mpy" in lib or f"{driver}.py" in lib or driver in lib:
            say(f"micropython-lib's {driver} is already in :lib")
            continue
        say(f"mip install {driver} (micropython-lib's driver, from the network)")
        device.install_driver(driver)
