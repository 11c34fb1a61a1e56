"""The simulated terminal's other end: its radio in memory, and the real collector behind it.

Under CPython (pytest) the collector runs in this process (tenace.simulation.terminal.table_host); under the
MicroPython unix port it runs in the CPython process that started this one, reached by a line protocol
on the loopback port named by TENACE_HOST_PORT. Either way the terminal's frames are the real ones.
"""

import json
import os

from sim_devices import Bits

from tenace_wire.frame import peek_header


class Radio:
    """The terminal's transport: frames both ways in memory. `up` False: nothing the terminal sends
    arrives (out of range); `down` False: nothing the host sends arrives; `losing`: the wire sequence
    numbers of terminal frames that never arrive (one message lost again and again); `loss`: the
    chance that any frame, either way, is lost (drawn from seeded bits: the same on every run)."""

    def __init__(self, loss=0.0, seed=5):
        self.to_host = []
        self.to_terminal = []
        self.up = True
        self.down = True
        self.losing = set()
        self.loss = loss
        self.bits = Bits(seed)

    def lost(self):
        return self.loss > 0 and self.bits.getrandbits(16) < self.loss * 65536

    def send(self, frame):
        if self.up and not (self.losing and peek_header(frame)[2] in self.losing) and not self.lost():  # pyright: ignore[reportOptionalSubscript]
            self.to_host.append(bytes(frame))

    def deliver(self, frames):
        """What the host broadcast, as far as it reaches the terminal."""
        if self.down:
            for frame in frames:
                if not self.lost():
                    self.to_terminal.append(frame)

    def recv(self):
        if self.to_terminal:
            return self.to_terminal.pop(0)
        return None

    def take(self):
        """The frames on their way to the host, taken off the air."""
        out = self.to_host
        self.to_host = []
        return out


def _by_number(answer):
    out = {}
    for k, v in answer.items():
        out[int(k)] = v  # JSON's keys are text
    return out


class Questions:
    """What the tests ask the host: read from its event file."""

    def ask(self, name, *args):
        """The host's answer to the question `name`, with `args` (LocalHost: in this process; RemoteHost: over
        its TCP port)."""
        raise NotImplementedError

    def result(self, round_, board):
        """The summary of what arrived last for `board` of round `round_` ("played v0 4S N 11 HK +450"), or None."""
        return self.ask("result", round_, board)

    def results(self):
        """round * 1000 + board -> summary of every board with a result that counts."""
        return _by_number(self.ask("results"))

    def stored(self):
        """The app's seq of every result and player-numbers message stored -> its summary."""
        return _by_number(self.ask("stored"))

    def enter(self, table, round_, board, contract, declarer, tricks):
        """Another table's result, entered at the host ("stored")."""
        return self.ask("enter", table, round_, board, contract, declarer, tricks)

    def erase(self, table, round_, board):
        """The director erases a table's result (tenace erase) ("stored")."""
        return self.ask("erase", table, round_, board)

    def conflicts(self):
        """Boards whose results disagree, none of them counting until the director decides."""
        return self.ask("conflicts")

    def duplicates(self):
        """Copies the collector took of messages it had stored already."""
        return self.ask("duplicates")

    def sign_ins(self):
        """Sign-ins the event file has recorded."""
        return self.ask("sign_ins")

    def close_event(self):
        """The director closes the session: new results are refused."""
        self.ask("close_event")

    def plans(self, table):
        """Round -> the table's round plan the host holds now, in hex (as the terminal keeps it in link.plans)."""
        return _by_number(self.ask("plans", table))

    def move(self, change, what, round_):
        """The director changes the movement from `round_` on: "late"/"leave" "NS3", "close" 3, "swap" "NS1:NS2"."""
        return self.ask("move", change, what, round_)

    def status(self):
        """The terminals' latest status reports as the event file keeps them, a line each: "1 0.1.0 87% 0 not_run -"."""
        return self.ask("status")

    def forget(self, terminal):
        """The collector loses where `terminal` sits (a fault)."""
        self.ask("forget", terminal)

    def calls(self):
        """The director's calls stored, newest first: "table round call left acknowledged"."""
        return self.ask("calls")

    def acknowledge(self):
        """The director acknowledges every open call; how many."""
        return self.ask("acknowledge")

    def clock(self, round_, minutes, seconds_ago=0):
        """The director starts the round clock, as if `seconds_ago` seconds ago; the seconds left."""
        return self.ask("clock", round_, minutes, seconds_ago)


class LocalHost(Questions):
    """A TableHost in this process, in a folder of its own."""

    def __init__(self, options):
        import shutil
        import tempfile
        from pathlib import Path

        # CPython only, with tenace installed: pyright checks these programs against the unix port's stubs.
        from tenace.simulation.terminal.table_host import HostOptions, TableHost  # pyright: ignore[reportMissingImports]

        self._remove = shutil.rmtree
        self.folder = tempfile.mkdtemp(prefix="tenace-host-")
        self.table_host = TableHost(Path(self.folder), HostOptions.from_json(json.dumps(options)))
        self.key = self.table_host.key.key
        self.code = self.table_host.key.code
        self.pin = "%04d" % self.table_host.collector.director_pin

    def exchange(self, frames, now):
        return self.table_host.exchange(frames, now)

    def ask(self, name, *args):
        return getattr(self.table_host, name)(*args)

    def close(self):
        self.table_host.close()
        self._remove(self.folder, ignore_errors=True)


class RemoteHost(Questions):
    """A TableHost in the CPython process listening on TENACE_HOST_PORT (tenace.simulation.terminal.table_host's
    serve)."""

    def __init__(self, options):
        import socket

        port = os.getenv("TENACE_HOST_PORT")
        if not port:
            raise OSError("TENACE_HOST_PORT is not set: start the table host first"
                          " (tenace.simulation.terminal.table_host)")
        self.sock = socket.socket()
        self.sock.connect(socket.getaddrinfo("127.0.0.1", int(port))[0][-1])
        # TCP_NODELAY (Linux: level 6, option 1): an exchange is written in small pieces, each to go at once.
        self.sock.setsockopt(6, 1, 1)
        made = self._call("N " + json.dumps(options))
        self.key = bytes.fromhex(made["key"])
        self.code = made["code"]
        self.pin = made["pin"]  # the director's, for the terminal's menu

    def _line(self, line):
        self.sock.send(line.encode() + b"\n")
        chunks = []
        while True:
            chunk = self.sock.recv(512)  # small pieces: a terminal-sized heap has no 4 KB in one piece to spare
            if not chunk:
                raise OSError("the table host closed the connection")
            chunks.append(chunk)
            if chunk[-1] == 10:
                line = b"".join(chunks).decode()
                if line.startswith("!"):
                    raise OSError("the table host: " + line[2:].strip())
                return line

    def _call(self, line):
        return json.loads(self._line(line))

    def exchange(self, frames, now):
        # Frame by frame both ways, never a whole line in one piece: a terminal-sized heap, fragmented by the
        # terminal's own work, may have no 600 bytes in one piece to spare (the host sends several frames at once,
        # the terminal acknowledges each).
        sock = self.sock
        sock.send(b"X " + str(now).encode())
        for frame in frames:
            sock.send(b" " + frame.hex().encode())
        sock.send(b"\n")
        down = []
        word = b""
        while True:
            chunk = sock.recv(128)
            if not chunk:
                raise OSError("the table host closed the connection")
            if not down and not word and chunk[0] == 33:  # "!": the table host failed
                while not chunk.endswith(b"\n"):
                    chunk += sock.recv(128)
                raise OSError("the table host: " + chunk.decode()[2:].strip())
            pieces = chunk.split(b" ")
            last = len(pieces) - 1
            for i in range(len(pieces)):
                piece = pieces[i]
                ended = piece.endswith(b"\n")
                word += piece.rstrip(b"\n")
                if word and (ended or i < last):
                    down.append(bytes.fromhex(word.decode()))
                    word = b""
                if ended:
                    return down

    def ask(self, name, *args):
        line = "Q " + name
        for arg in args:
            line += " " + str(arg)
        return self._call(line)

    def close(self):
        self.sock.close()


def connect(options):
    """The host for a simulated terminal: options as HostOptions.from_json reads them
    (tenace.simulation.terminal.table_host)."""
    try:
        # CPython's (LocalHost's), not on the unix port: trying tenace there would compile an installed tenace's
        # CPython modules in the terminal's heap before failing.
        import tempfile  # noqa: F401
    except ImportError:
        return RemoteHost(options)
    return LocalHost(options)
