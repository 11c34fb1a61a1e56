"""A whole session at one table at the pace of a club evening, on metered simulated hardware: what each part is on.

The terminal is built as its board file builds it (the build's radio transport over its driver's calls, the text
display on an SSD1306, the keypad, the real App and WireLink) over the devices of power_meter.py, and plays
against the real collector (host_end's TableHost, in this process: CPython only) on a ManualClock. The players
take `play_ms` over each board before keying its result, `move_ms` between rounds and `read_ms` to read a
screen; fingers press a key every `key_gap_ms`. The terminal's loop is the board files' (tenace_terminal.power.run):
a pass of app.step(), then, with nothing to do, Idle(app).rest(). Each pass is charged `step_ms` of processor time
(`busy_ms` when it handled a key or a message) and each frame shown its time on the display's bus. A player who
finds the display off presses a key to light it first (Idle turns it off; that key only lights it).

    report = play(options)   # options: see OPTIONS; the meter's report, with the keys and results counted
    report = idle(options)   # a table signed in whose players key nothing for `idle_ms`: that stretch's report
tools/power_budget.py runs both for each build and combines the times with the build's currents (power.toml).
"""

import sim_devices
from host_end import Radio, connect
from power_meter import Air, EspNowRadio, MeteredClock, Nrf24Radio, PacedKeypad, Panel
from scripted_player import Player
from session_runner import provision
from sim_devices import Bits, FixedBattery
from tenace_terminal.power import Idle

OPTIONS = {
    "radio": "nrf24",  # or "espnow": which transport and driver the build has
    "rounds": 8,
    "boards": 3,  # 8 rounds of 3 boards at 7 minutes, and the moves: a three-hour session
    "play_ms": 420000,
    "move_ms": 60000,
    "read_ms": 3000,
    "key_gap_ms": 800,
    "step_ms": 0.5,  # one pass of the loop with nothing to do: a key scan and the link's poll
    "busy_ms": 5.0,  # one pass that handles a key or a message (the journal, the screen's logic)
    "bus_hz": 400000,  # the display's I2C: a frame is its bytes at 9 bits each
    "tx_fixed_us": 130.0,  # a packet's airtime: this, plus tx_us_per_byte for each byte of its payload
    "tx_us_per_byte": 32.0,
    "lightsleep": False,  # the board's clock gives the app machine.lightsleep: True (the radio listens on its own,
    # the Pico's nRF24), "radio-off" (only while the receiver is off: the ESP32-C3's SleepyClock), False (sleep_ms)
    "limit_ms": 6 * 3600 * 1000,  # a session that has not ended by then has gone wrong
    "idle_ms": 20 * 60000,  # idle(): signed in, round 1 shown, nobody keys (the players not there yet, a sit-out)
}
_POLL_MS = 100  # with nothing from the terminal, the collector is asked this often for what is due


def airtime(opts):
    fixed = opts["tx_fixed_us"]
    per_byte = opts["tx_us_per_byte"]

    def ms(n):
        return (fixed + per_byte * n) / 1000

    return ms


class Pacer:
    """When the players act on what the screen shows: after playing the board, moving, or reading it."""

    def __init__(self, app, opts):
        self.app = app
        self.opts = opts
        self.seen = None
        self.at = 0

    def ready(self, now):
        app = self.app
        name = app.screen_name
        entry = app.entry
        seen = (name, entry.board if entry is not None else 0, id(app.screen))
        if seen != self.seen:
            self.seen = seen
            if name == "contract":
                wait = self.opts["play_ms"]
            elif name == "round_end":
                wait = self.opts["move_ms"]
            elif name == "startup":
                wait = 0
            else:
                wait = self.opts["read_ms"]
            self.at = now + wait
        return now >= self.at


def build(opts, clock, radio, storage):
    """The terminal as its board file assembles it, over metered devices; returns (app, keypad, air)."""
    meter = clock.meter
    air = Air(radio, meter)
    if opts["radio"] == "espnow":
        from tenace_radio.espnow_transport import EspNowTransport

        transport = EspNowTransport(EspNowRadio(air, airtime(opts)))
    else:
        from tenace_radio.nrf24_transport import terminal_transport

        transport = terminal_transport(Nrf24Radio(air, airtime(opts)))
    from tenace_terminal.build import build_terminal
    from tenace_terminal.text_display import TextDisplay

    keypad = PacedKeypad(meter, opts["key_gap_ms"])
    display = TextDisplay(Panel(meter))
    app = build_terminal(transport, 1, keypad, display, clock, storage, FixedBattery(), "T01", Bits(1).getrandbits)
    return app, keypad, air


def play(options=None, seed=1):
    """Play one table's whole session; the meter's report, with "keys" and "accepted" added."""
    return _run(options, seed, False)


def idle(options=None, seed=1):
    """A table signed in, round 1's plan on its screen, whose players key nothing for `idle_ms`: the meter's report
    over that stretch alone (the link's polls, the display turned off, the keypad scanned)."""
    return _run(options, seed, True)


def _less(after, before):
    """What a meter measured between two of its reports."""
    out = {"session_ms": after["session_ms"] - before["session_ms"], "ms": {}, "counts": {}}
    for part in ("ms", "counts"):
        for name, value in after[part].items():
            out[part][name] = value - before[part].get(name, 0)
    return out


def _run(options, seed, idling):
    opts = dict(OPTIONS)
    opts.update(options or {})
    clock = MeteredClock(1000)
    if not opts["lightsleep"]:
        setattr(clock, "lightsleep", None)  # noqa: B010  (a board whose clock is time: sleep_ms only)
    host = connect({"rounds": opts["rounds"], "boards_per_round": opts["boards"], "settings": {}})
    storage = sim_devices.new_directory()
    try:
        provision(storage, host.key)
        radio = Radio()
        app, keypad, air = build(opts, clock, radio, storage)
        if opts["lightsleep"] == "radio-off":  # light sleep powers the Wi-Fi's RF down: not while it listens
            sleep = clock.lightsleep
            setattr(clock, "lightsleep", lambda ms: clock.sleep_ms(ms) if air.listening else sleep(ms))  # noqa: B010
        player = Player(app, keypad, 1, host.code, seed)
        pacer = Pacer(app, opts)
        idle = Idle(app)  # as App.run() makes it
        rest = idle.rest
        frame_ms = (1024 + 6 + 16) * 9 * 1000 / opts["bus_hz"]  # Panel's bytes a frame, 9 bits a byte on I2C
        polled = -_POLL_MS
        wakes = 0
        start = clock.now
        before = None  # idling: the meter's report once the table is signed in and shows round 1
        while not (player.finished() or (before is not None and clock.now - before["at"] >= opts["idle_ms"])):
            if clock.now - start > opts["limit_ms"]:
                raise RuntimeError("the session did not end in %d ms (screen %s)" % (opts["limit_ms"],
                                                                                      app.screen_name))
            frames = radio.take()
            if frames or clock.now - polled >= _POLL_MS:
                air.deliver(host.exchange(frames, clock.now))
                polled = clock.now
            shown = clock.meter.counts.get("display.frames", 0)
            busy = app.step()
            work = opts["busy_ms"] if busy else opts["step_ms"]
            clock.work(work + (clock.meter.counts.get("display.frames", 0) - shown) * frame_ms)
            if not busy:
                if idling and before is None and app.screen_name == "round" and not keypad.queue:
                    before = clock.meter.report()
                    before["at"] = clock.now
                if before is None and not keypad.queue and pacer.ready(clock.now):  # (idling: nobody keys)
                    if idle.dark:  # a dark display: a key to light it, then they read it
                        keypad.push("OK")
                        wakes += 1
                    else:
                        player.act()
                rest()
        report = clock.meter.report()
        if before is not None:
            report = _less(report, before)
        report["keys"] = player.keys + wakes
        report["wakes"] = wakes
        report["accepted"] = len(host.results())
        report["faults"] = app.faults + app.link.faults
        return report
    finally:
        host.close()
        sim_devices.remove_directory(storage)
