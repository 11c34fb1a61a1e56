"""The Pico terminal's board around the emulated chip, on the Python side of tools/rp2040/harness.js.

Pins from hardware/terminal-pico-nrf24/board.py (the one file that knows them). The SSD1306 is the simulator's model
(host/tenace/simulation/boards/bus_models.py, the board tests' too), fed each I2C write; the nRF24L01+ is its register
model (nrf24_model.py there), each SPI byte exchanged with it and CE/CSN moving it, on a seeded lossy air shared
with a base station: micropython-lib's driver on a second chip model under the firmware's base-station transport,
relaying to the simulator's virtual radio (SLIP over TCP) and so to `tenace collect`.
"""

from __future__ import annotations

import ast
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from tenace.firmware_build import SIM_DIR

ROOT = Path(__file__).resolve().parent.parent
BOARD_FILE = ROOT / "hardware" / "terminal-pico-nrf24" / "board.py"
for folder in (SIM_DIR, ROOT.parent / "shared" / "vendor" / "micropython-lib" / "nrf24l01"):
    if str(folder) not in sys.path:
        sys.path.append(str(folder))  # the hardware models and micropython-lib's driver, by bare name


def _utime() -> ModuleType:
    """MicroPython's utime as the nrf24l01 driver uses it, on CPython's clock (the base station's side)."""
    module = ModuleType("utime")
    module.ticks_ms = lambda: time.monotonic_ns() // 1_000_000  # type: ignore[attr-defined]
    module.ticks_diff = lambda a, b: a - b  # type: ignore[attr-defined]
    module.sleep_ms = lambda ms: None  # type: ignore[attr-defined]  (the chip model answers at once)
    module.sleep_us = lambda us: None  # type: ignore[attr-defined]
    return module


sys.modules.setdefault("utime", _utime())

from bus_models import SSD1306Model  # noqa: E402
from nrf24_model import Air, Chip, radio  # noqa: E402
from tenace_radio.nrf24_transport import base_station_transport  # noqa: E402
from tenace_terminal.keypad_layout import LAYOUT  # noqa: E402

from tenace_wire import slip  # noqa: E402

CELL_MV = 3900  # a cell about two thirds charged
DIODE_MV = 200  # the Schottky diode between the cell and VSYS (board.build's Battery adds it back)


def pins(path: Path = BOARD_FILE) -> dict[str, object]:
    """The board file's top-level constants that are plain numbers or tuples of them."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(value, int | tuple):
                found[node.targets[0].id] = value
    return found


def key_position(name: str) -> tuple[int, int]:
    """(row, column) of a key on the matrix."""
    for r, row in enumerate(LAYOUT):
        if name in row:
            return r, row.index(name)
    raise ValueError(f"no key {name!r} on the keypad")


@dataclass
class PicoBoard:
    """The devices; `on_line` serves the harness's I, P and X lines (tools/chip.py's Chip.on_line)."""

    radio_port: int
    seed: int
    loss: int  # per mille, each packet and each ACK on the air
    oled: SSD1306Model = field(default_factory=SSD1306Model)
    draws: list[int] = field(default_factory=list)  # the chip's clock (ns) at the end of each frame sent to the OLED
    air: Air = field(init=False)
    chip: Chip = field(init=False)

    def __post_init__(self) -> None:
        p = pins()
        self.p = p
        self.air = Air(self.seed, self.loss)
        self.chip = Chip(self.air)
        self.base = base_station_transport(radio(Chip(self.air)))
        self.sock = socket.create_connection(("127.0.0.1", self.radio_port))
        self.sock.setblocking(False)
        self.decoder = slip.Decoder()
        self.down: list[bytes] = []
        self.up = 0  # frames relayed to the host
        self.pin_moves = 0

    def power_cycle_radio(self) -> None:
        """The terminal's nRF24 loses its power with the chip: a new one, at its reset values, on the same air."""
        self.air.chips.remove(self.chip)
        self.chip = Chip(self.air)

    def harness_map(self) -> dict[str, object]:
        p = self.p
        return {"rows": list(p["ROW_PINS"]), "cols": list(p["COL_PINS"]), "i2c": p["I2C_ID"], "spi": p["SPI_ID"],
                "i2c_devices": [p["OLED_ADDR"]], "watch": [p["CSN"], p["CE"]],
                "adc": [int(p["BATTERY_PIN"]) - 26, self.battery_adc()]}

    def battery_adc(self, cell_mv: int = CELL_MV) -> int:
        """The 12-bit ADC reading at the battery pin for a cell at `cell_mv`: VSYS (the diode's drop below the cell)
        through the Pico's divider, against the 3.3 V reference."""
        p = self.p
        return (cell_mv - DIODE_MV) * 4095 // (int(p["DIVIDER"]) * int(p["VREF_MV"]))

    def on_line(self, text: str) -> str | None:
        kind, _, rest = text.partition(" ")
        if kind == "X":
            return str(self.chip.exchange(int(rest)))
        if kind == "P":
            pin, level = (int(w) for w in rest.split())
            self.pin_moves += 1
            (self.chip.csn if pin == self.p["CSN"] else self.chip.ce)(level)
        elif kind == "I":
            addr, data, nanos = rest.split()
            if int(addr) == self.p["OLED_ADDR"]:
                payload = bytes.fromhex(data)
                self.oled.receive(payload)
                if payload[:1] == b"\x40" and len(payload) > 1:  # RAM data: a frame drawn
                    self.draws.append(int(nanos))
        return None

    def pump(self) -> None:
        """The base station's relay, as tenace_radio.console_relay does it on the Pico base station."""
        frame = self.base.recv()
        while frame is not None:
            self.sock.sendall(slip.encode(frame))
            self.up += 1
            frame = self.base.recv()
        try:
            while data := self.sock.recv(4096):
                self.down.extend(self.decoder.feed(data))
        except BlockingIOError:
            pass
        if self.down:  # one a step: the terminal's RX FIFO holds three, as on the device
            self.base.send(self.down.pop(0))

    def close(self) -> None:
        self.sock.close()
