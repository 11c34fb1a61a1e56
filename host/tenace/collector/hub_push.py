"""A club's pushes to its sim's hub: the outbox of its event file sent in order, from what the hub acknowledged on.

The pusher runs beside the collector in a thread of its own with its own connection to the event file, so the
evening never waits for the hub: a hub that is down, slow or refusing only leaves the outbox queued (kept in the
event file), and the pushes go when it answers again, from the hub's acknowledged number + 1. A resend is the same
push (the outbox keeps each as first computed): the hub takes it as a duplicate.
"""

from __future__ import annotations

import logging
import random
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tenace.protocol import wire
from tenace.store import StoreError, connect
from tenace.store.hub_outbox import SimLink, outbox, pending, record_answer, sim_link

log = logging.getLogger(__name__)

TIMEOUT_S = 10.0  # one request's, connecting included
IDLE_S = 0.25  # how often a pusher with nothing queued looks at the outbox
BACKOFF_S = (0.5, 30.0)  # after a failed push: the first wait, doubled each time up to the last


class PushError(Exception):
    """The hub did not take a batch: unreachable, or its status and one line."""


@dataclass(frozen=True)
class SimAddress:
    hub: str  # the hub's base URL: "http://hub.example.org:8800"
    sim: str
    club: str

    @property
    def url(self) -> str:
        return f"{self.hub}/sims/{self.sim}/clubs/{self.club}"


def sim_address(url: str) -> SimAddress:
    """A club's sim URL as the organiser gives it, HUB/sims/SIM/clubs/CLUB; ValueError with the reason."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"--sim {url}: an http:// or https:// address, HUB/sims/SIM/clubs/CLUB")
    path = parts.path.rstrip("/").split("/")
    if len(path) < 5 or path[-4] != "sims" or path[-2] != "clubs" or not path[-3] or not path[-1]:
        raise ValueError(f"--sim {url}: the address ends in /sims/SIM/clubs/CLUB (as the organiser gave it)")
    if parts.query or parts.fragment:
        raise ValueError(f"--sim {url}: no ?query or #fragment")
    base = urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/".join(path[:-4]), "", ""))
    return SimAddress(base, urllib.parse.unquote(path[-3]), urllib.parse.unquote(path[-1]))


def send(link: SimLink, pushes: list[wire.Push], timeout: float = TIMEOUT_S) -> wire.Ack:
    """POST one batch to the hub; its answer, or PushError."""
    body = wire.encode(wire.Batch(link.sim, link.club, tuple(pushes)))
    request = urllib.request.Request(link.hub + wire.PUSH_PATH, data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {link.token}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return wire.decode_ack(answer.read(4096))
    except urllib.error.HTTPError as e:
        text = e.read(500).decode("utf-8", "replace").strip().splitlines()
        raise PushError(f"the hub answered {e.code}: {text[0] if text else e.reason}") from None
    except wire.WireError as e:
        raise PushError(f"the hub's answer is not an acknowledgement: {e}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = e.reason if isinstance(e, urllib.error.URLError) else e
        raise PushError(f"the hub at {link.hub} is unreachable: {reason}") from None


@dataclass(frozen=True)
class Pushed:
    """What one push round did: batches sent, the hub's acknowledged number and the outbox's total after it."""

    batches: int
    acked: int
    total: int


def push_all(conn: sqlite3.Connection, timeout: float = TIMEOUT_S) -> Pushed:
    """Send what is queued, a batch at a time, until the hub holds it all; PushError when it does not take one (the
    outbox stays as it is, the hub's answer or the reason recorded in the link)."""
    link = sim_link(conn)
    if link is None:
        raise PushError("this event is not linked to a sim (tenace event link-sim EVENT --sim URL --token T)")
    batches, acked = 0, link.acked
    while True:
        pushes = pending(conn, acked)
        if not pushes:
            return Pushed(batches, acked, outbox(conn).total)
        try:
            answer = send(link, pushes, timeout)
        except PushError as e:
            record_answer(conn, None, str(e))
            raise
        batches += 1
        record_answer(conn, answer.acked)
        if answer.acked == acked:  # nothing taken although sent from its number on: not again at once
            raise PushError(f"the hub acknowledged {answer.acked} and took none of pushes "
                            f"{pushes[0].seq}-{pushes[-1].seq}")
        # Lower than before: the hub holds less than it said (its database restored); sent again from there.
        acked = answer.acked


class Pusher:
    """The collector's background pusher: a thread that keeps the hub up to date with the event file's outbox."""

    def __init__(self, db: Path, idle_s: float = IDLE_S, backoff_s: tuple[float, float] = BACKOFF_S) -> None:
        self.db = db
        self.idle_s = idle_s
        self.backoff_s = backoff_s
        self.stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tenace-pusher", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, wait_s: float = TIMEOUT_S + 1) -> None:
        self.stopping.set()
        if self._thread.is_alive():
            self._thread.join(wait_s)

    def _run(self) -> None:
        try:
            conn = connect(self.db)
        except StoreError as e:
            log.error("pusher: %s", e)
            return
        try:
            self._loop(conn)
        finally:
            conn.close()

    def _loop(self, conn: sqlite3.Connection) -> None:
        wait = self.backoff_s[0]
        failing = ""
        while not self.stopping.is_set():
            try:
                link = sim_link(conn)
                if link is None or outbox(conn).queued == 0:
                    self.stopping.wait(self.idle_s)
                    continue
                done = push_all(conn)
            except PushError as e:
                if str(e) != failing:
                    log.warning("pusher: %s (the results stay queued in the event file)", e)
                    failing = str(e)
                # Jittered, so that a hub back after an outage is not hit by every club in the same instant.
                self.stopping.wait(wait * random.uniform(0.5, 1.0))
                wait = min(wait * 2, self.backoff_s[1])
                continue
            except (sqlite3.Error, StoreError) as e:  # the event file busy or damaged: the collector says so
                log.warning("pusher: the event file: %s", e)
                self.stopping.wait(self.backoff_s[1])
                continue
            except Exception:  # a fault of ours must not stop the pushes for the rest of the evening
                log.exception("pusher: an internal error; trying again in %.0f s", self.backoff_s[1])
                self.stopping.wait(self.backoff_s[1])
                continue
            if failing:
                log.info("pusher: the hub takes the pushes again")
                failing = ""
            wait = self.backoff_s[0]
            log.debug("pusher: %d batch(es), the hub holds %d of %d", done.batches, done.acked, done.total)
