"""Simulated hardware that keeps time: how long each power-hungry part of a terminal is in each state.

The power session (power_session.py) builds a terminal the way its board file does, over these devices in place
of the real ones, and runs it on a ManualClock; tools/power_budget.py turns what they measured into currents.
Nothing here is in the firmware: the terminal's heap is the same as on a device.

    meter = Meter(clock)           # part.state -> milliseconds, and counters
    meter.set("radio", "rx")       # the radio listens from now on
    meter.add("radio.tx", 1.45)    # a packet on the air: 1.45 ms transmitting
    meter.count("keys.scans")      # one scan of the key matrix
    meter.report()                 # {"ms": {...}, "counts": {...}, "session_ms": ...}
"""

from sim_devices import ManualClock

# Lit pixels in a byte: the OLED's current is in proportion to them.
_BITS = bytes([bin(i).count("1") for i in range(256)])


class Meter:
    """The time each part spends in each state, on the simulated clock, and counters."""

    def __init__(self, clock):
        self.clock = clock
        self.start = clock.now
        self.states = {}  # part -> [state, since]
        self.ms = {}  # "part.state" -> milliseconds (float: a packet's airtime is a fraction of one)
        self.counts = {}

    def set(self, part, state):
        now = self.clock.now
        current = self.states.get(part)
        if current is not None:
            if current[0] == state:
                return
            self.add(part + "." + current[0], now - current[1])
        self.states[part] = [state, now]

    def state(self, part):
        current = self.states.get(part)
        return current[0] if current is not None else None

    def add(self, key, ms):
        self.ms[key] = self.ms.get(key, 0) + ms

    def count(self, name, n=1):
        self.counts[name] = self.counts.get(name, 0) + n

    def report(self):
        """What was measured until now: every state's time, the counters, and the session's length."""
        for part in list(self.states):
            state = self.states[part][0]
            self.set(part, "")  # closes the current state at now
            self.states[part] = [state, self.clock.now]
        self.ms.pop("", None)
        return {"session_ms": self.clock.now - self.start, "ms": dict(self.ms), "counts": dict(self.counts)}


class MeteredClock(ManualClock):
    """ticks_ms, sleep_ms and lightsleep of a device whose processor the meter watches: awake while it works (the
    session charges each pass of the loop with work()), idle in sleep_ms (clocks running), asleep in lightsleep."""

    def __init__(self, start=0):
        super().__init__(start)
        self.meter = Meter(self)
        self.meter.set("cpu", "awake")
        self._part = 0.0  # work of less than a millisecond, until it adds up to one (ticks_ms is whole)

    def work(self, ms):
        self._part += ms
        whole = int(self._part)
        self.now += whole
        self._part -= whole

    def sleep_ms(self, ms):
        self.meter.set("cpu", "idle")
        self.now += ms
        self.meter.set("cpu", "awake")

    def lightsleep(self, ms):
        self.meter.set("cpu", "sleep")
        self.now += ms
        self.meter.set("cpu", "awake")


class Panel:
    """A 128x64 SSD1306 as micropython-lib's driver shows it to TextDisplay (fill, fill_rect, blit, show, poweroff,
    poweron, contrast), keeping its lit pixels: the display's time on, off, and its pixel-milliseconds at the
    contrast set (an OLED's current follows both)."""

    def __init__(self, meter, bus_bytes_per_frame=1024 + 6 + 16):
        self.meter = meter
        self.buffer = bytearray(1024)
        self.frame_bytes = bus_bytes_per_frame  # what show() puts on the bus: the RAM, its commands, addresses
        self.lit = 0  # pixels lit on the panel (as of the last show)
        self.level = 255  # contrast
        self.on = True
        self._since = meter.clock.now
        meter.set("display", "on")

    def _account(self):
        now = self.meter.clock.now
        if self.on:
            self.meter.add("display.pixel_ms", self.lit * (now - self._since) * self.level / 255)
        self._since = now

    def fill(self, c):
        b = 0xFF if c else 0
        buf = self.buffer
        for i in range(len(buf)):
            buf[i] = b

    def fill_rect(self, x, y, w, h, c):
        for page in range(y >> 3, (y + h + 7) >> 3):
            for col in range(max(x, 0), min(x + w, 128)):
                i = page * 128 + col
                mask = 0
                for bit in range(8):
                    if y <= page * 8 + bit < y + h:
                        mask |= 1 << bit
                self.buffer[i] = (self.buffer[i] | mask) if c else (self.buffer[i] & ~mask)

    def blit(self, source, x, y):
        cell, w, h = source[0], source[1], source[2]
        base = (y >> 3) * 128
        for k in range(w):
            if 0 <= x + k < 128 and h == 8 and not y & 7:
                self.buffer[base + x + k] = cell[k]

    def show(self):
        self._account()
        self.lit = sum([_BITS[b] for b in self.buffer])
        self.meter.count("display.frames")
        self.meter.count("display.bus_bytes", self.frame_bytes)

    def poweroff(self):
        self._account()
        self.on = False
        self.meter.set("display", "off")

    def poweron(self):
        self._account()
        self.on = True
        self.meter.set("display", "on")

    def contrast(self, level):
        self._account()
        self.level = level
        self.meter.set("display", "on" if level >= 128 else "dim")


class PacedKeypad:
    """The keypad as the scripted player uses it (queue, push), read() being one scan of the matrix: keys come out
    one every `gap_ms`, as fingers press them."""

    def __init__(self, meter, gap_ms):
        self.meter = meter
        self.gap_ms = gap_ms
        self.queue = []
        self.next_at = 0

    def push(self, *keys):
        for key in keys:
            self.queue.append(key)

    def read(self):
        meter = self.meter
        meter.count("keys.scans")
        now = meter.clock.now
        if self.queue and now >= self.next_at:
            self.next_at = now + self.gap_ms
            meter.count("keys.pressed")
            return self.queue.pop(0)
        return None

    def held(self):
        return []


class Air:
    """The terminal's side of the simulated air: host_end.Radio's frames, a radio that hears them only while it
    listens (a frame sent to a deaf radio is lost, and counted)."""

    def __init__(self, radio, meter):
        self.radio = radio
        self.meter = meter
        self.listening = False

    def deliver(self, frames):
        if self.listening:
            self.radio.deliver(frames)
        elif frames:
            self.meter.count("radio.missed", len(frames))


class EspNowRadio:
    """espnow.ESPNow's calls that EspNowTransport makes, on the air: the Wi-Fi receiver is on while active (ESP-NOW
    has no sleep of its own without an access point); a send is one 802.11b frame at 1 Mbit/s."""

    def __init__(self, air, airtime_ms):
        self.air = air
        self.meter = air.meter
        self.airtime_ms = airtime_ms  # payload bytes -> ms on the air
        self.peers = []
        self.active(True)

    def active(self, on=None):
        if on is not None:
            self.air.listening = bool(on)
            self.meter.set("radio", "rx" if on else "off")
        return self.air.listening

    def power(self, on):
        """The board file's SleepyRadio.power: the Wi-Fi stopped or started again (counted: a start's cost is the
        build's radio.wakes charge)."""
        if on and not self.air.listening:
            self.meter.count("radio.wakes")
        self.active(on)

    def add_peer(self, mac):
        if mac in self.peers:
            raise OSError(-12395, "ESP_ERR_ESPNOW_EXIST")
        self.peers.append(mac)

    def send(self, mac, msg, sync=True):
        self.meter.add("radio.tx", self.airtime_ms(len(msg)))
        self.meter.count("radio.tx_packets")
        self.air.radio.send(bytes(msg))
        return True

    def irecv(self, timeout_ms=None):
        frame = self.air.radio.recv() if self.air.listening else None
        if frame is None:
            return (None, None)
        self.meter.count("radio.rx_packets")
        return (b"\x02base0", frame)


class Nrf24Radio:
    """micropython-lib's NRF24L01 calls that Nrf24Transport makes, on the air: listening (RX) from start_listening()
    to stop_listening() (then standby-I), a send is one 32-byte payload in Enhanced ShockBurst at 250 kbit/s."""

    def __init__(self, air, airtime_ms):
        from tenace_radio.nrf24_transport import PAYLOAD_SIZE, frame_length, pad

        self.air = air
        self.meter = air.meter
        self.airtime_ms = airtime_ms
        self._pad = pad
        self._length = frame_length
        self._size = PAYLOAD_SIZE
        self.meter.set("radio", "standby")

    def reg_write(self, reg, value):
        pass

    def open_tx_pipe(self, address):
        pass

    def open_rx_pipe(self, pipe, address):
        pass

    def start_listening(self):
        self.air.listening = True
        self.meter.set("radio", "rx")

    def stop_listening(self):
        self.air.listening = False
        self.meter.set("radio", "standby")

    def power_down(self):
        self.air.listening = False
        self.meter.set("radio", "off")

    def send(self, payload):
        self.meter.add("radio.tx", self.airtime_ms(self._size))
        self.meter.count("radio.tx_packets")
        # The base station unpads it, as its transport does, and relays the frame.
        self.air.radio.send(bytes(payload[:self._length(payload)]))

    def any(self):
        return self.air.listening and bool(self.air.radio.to_terminal)

    def recv(self):
        self.meter.count("radio.rx_packets")
        return self._pad(self.air.radio.recv())
