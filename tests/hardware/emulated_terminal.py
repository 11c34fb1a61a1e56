"""One table terminal on emulated hardware, through its board file's build(): a MicroPython program for the tests.

    micropython emulated_terminal.py port=PORT seed=S code=123456 dir=DIR terminal=ID seat=A1

`board` is a terminal's hardware/<board>/board.py, as on the device. Its build() gets an I2C bus with an SSD1306
model (and the PCF8574 of the ESP32-C3 build), a simulated key matrix that a scripted player's finger presses
and releases key by key, a fake battery ADC, and a radio of the board's kind whose air leads to the
simulator's virtual radio: a TCP connection to tenace.simulation.radio, SLIP-framed, by the simulator's own terminals'
PolledSocket (simulation/boards/radio_socket.py). ESP-NOW's calls go to it directly; the nRF24 build runs
micropython-lib's real NRF24L01 driver on a register model of the chip (nrf24_model), whose air holds a base
station's chip too, relaying to the virtual radio. Writes what the
table accepted to DIR/ID/accepted.txt (the simulator's format, tenace.simulation.session.outcome.read_accepted), prints
"PANEL ..." with what the display received and "DONE ID keys=N faults=N" when the host has every result.
"""

import os
import sys
import time

import board
from accepted_log import log_accepted
from bus_models import FakeI2C, PCF8574Model, SSD1306Model
from fake_matrix import FakeMatrix
from radio_socket import PolledSocket
from scripted_player import Player
from tenace_terminal.keypad_layout import LAYOUT

from tenace_wire import slip

_HOLD_MS = 40  # a finger keeps a key down this long: twice the scanner's debounce
_GAP_MS = 40  # and lets go this long before the next key
# About 30 s on an idle 2-core machine; seen over 240 s with five test runs sharing it (a bound, not a target).
_TIMEOUT_MS = 540000


class Air:
    """The virtual radio (the simulator's own terminals' PolledSocket): SLIP frames out, whole frames in, without
    waiting."""

    def __init__(self, port):
        self.radio = PolledSocket(port, "emulated_terminal")
        self.decoder = slip.Decoder()
        self.frames = []

    def send(self, frame):
        self.radio.sock.send(slip.encode(frame))

    def pending(self):
        """Whether a whole frame has arrived (reading what the connection holds)."""
        while not self.frames and self.radio.any():
            self.frames.extend(self.decoder.feed(self.radio.read(256)))
        return bool(self.frames)

    def recv(self):
        return self.frames.pop(0) if self.pending() else None


class EspNowOnAir:
    """espnow.ESPNow's calls that EspNowTransport makes, on the virtual radio: every message a broadcast."""

    def __init__(self, air):
        self.air = air
        self.peers = []

    def add_peer(self, mac):
        if mac in self.peers:
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
        self.peers.append(mac)

    def send(self, mac, msg, sync=True):
        if mac not in self.peers:
            raise OSError(-12393, "ESP_ERR_ESPNOW_NOT_FOUND")
        if len(msg) > 250:
            raise ValueError("ESP-NOW carries 250 bytes at most")
        self.air.send(msg)
        return True

    def irecv(self, timeout_ms=None):
        frame = self.air.recv()
        return (None, None) if frame is None else (b"\x02base0", frame)


class BaseStationOnAir:
    """The nRF24 build's other side: a base station's transport over micropython-lib's driver on a chip model, on the
    same simulated air as the terminal's chip, relaying to the virtual radio as the Pico base station relays to the
    laptop (tenace_radio.console_relay)."""

    def __init__(self, link, chips):
        from nrf24_model import Chip, radio
        from tenace_radio.nrf24_transport import base_station_transport

        self.link = link
        self.transport = base_station_transport(radio(Chip(chips)))

    def pump(self):
        frame = self.transport.recv()
        while frame is not None:
            self.link.send(frame)
            frame = self.transport.recv()
        frame = self.link.recv()
        if frame is not None:  # one a step: the terminal's RX FIFO holds three, as on the device
            self.transport.send(frame)


class Battery:
    """machine.ADC at the battery pin of a cell at 3.9 V (about 68 %)."""

    def read_uv(self):
        return 3900 * 1000 // board.DIVIDER

    def read_u16(self):
        return (3900 - 200) * 65535 // (board.DIVIDER * board.VREF_MV) + 1


class Finger:
    """The keypad as the scripted player sees it (queue, push): each key pressed on the matrix, held, let go, and
    only then taken off the queue, so that the player looks at the screen again once the app has had it."""

    def __init__(self, matrix):
        self.matrix = matrix
        self.queue = []
        self.down = False
        self.released = False
        self.at = time.ticks_ms()
        self.presses = 0

    def push(self, *keys):
        for key in keys:
            self.queue.append(key)

    def tick(self, now):
        if not self.queue:
            return
        waited = time.ticks_diff(now, self.at)
        if self.down:
            if waited >= _HOLD_MS:
                self.matrix.release(self.queue[0])
                self.down = False
                self.released = True
                self.at = now
        elif self.released:
            if waited >= _GAP_MS:
                self.queue.pop(0)
                self.released = False
        else:
            self.matrix.press(self.queue[0])
            self.presses += 1
            self.down = True
            self.at = now


def options(argv):
    found = {"port": "", "seed": "1", "code": "", "dir": "", "terminal": "", "seat": ""}
    for arg in argv:
        name, _, value = arg.partition("=")
        if name not in found:
            raise SystemExit("emulated_terminal: unknown option %r" % arg)
        found[name] = value
    return found


def main(argv):
    opts = options(argv)
    terminal = int(opts["terminal"])
    section, table = opts["seat"][0], int(opts["seat"][1:])
    storage = opts["dir"] + "/" + str(terminal)
    os.mkdir(storage)
    bus = FakeI2C()
    oled = bus.attach(board.OLED_ADDR, SSD1306Model())
    matrix = FakeMatrix(LAYOUT)
    air = Air(int(opts["port"]))
    base = None
    if board.PORT == "esp32":
        bus.attach(board.EXPANDER_ADDR, PCF8574Model(matrix.rows))
        app = board.build(bus, matrix.cols, EspNowOnAir(air), Battery(), time, terminal, storage + "/journal")
    else:
        from nrf24_model import Air as Chips
        from nrf24_model import Chip, radio

        chips = Chips(int(opts["seed"]))
        base = BaseStationOnAir(air, chips)
        app = board.build(bus, matrix.rows, matrix.cols, radio(Chip(chips)), Battery(), time, terminal,
                          storage + "/journal")
    finger = Finger(matrix)
    player = Player(app, finger, table, opts["code"], int(opts["seed"]), section)
    logged = set()
    start = time.ticks_ms()
    print("READY %d %s" % (terminal, board.PORT))
    while not player.finished():
        now = time.ticks_ms()
        if time.ticks_diff(now, start) > _TIMEOUT_MS:
            # Said on stdout: the unix port's SystemExit prints nothing, and the test shows this output.
            print("TIMEOUT table %d not finished after %d s (screen %s)" % (table, _TIMEOUT_MS // 1000,
                                                                          app.screen_name))
            raise SystemExit(1)
        finger.tick(now)
        if base is not None:
            base.pump()
        busy = app.step()
        if not busy and not finger.queue:
            player.act()
        log_accepted(app, logged, storage + "/accepted.txt")
        if not busy:
            air.radio.poller.poll(2)
    fb = app.display.fb
    print("PANEL frames=%d errors=%d same=%d lit=%d expander=%s" % (
        oled.data_writes, len(oled.errors), 1 if oled.ram == fb.buffer else 0, oled.lit(),
        "none" if board.PORT != "esp32" else "%d" % len(bus.devices[board.EXPANDER_ADDR].errors)))
    for error in oled.errors[:5]:
        print("PANEL ERROR %s" % error)
    print("DONE %d keys=%d presses=%d faults=%d" % (terminal, player.keys, finger.presses, app.faults))


main(sys.argv[1:])
