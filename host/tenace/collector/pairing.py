"""Which key each terminal's frames are checked under (its way of pairing), and who holds a table.

Pairing, two ways (auth.py). A terminal flashed with the club key says so in its HELLO (the key's id) and derives
its event key from the club key; one without (a borrowed unit, the browser's spare terminal) from the code alone.
A terminal's frames are checked under the key of its way; which way it paired is kept in the event file at its
first frame under a new key (`tenace problems` lists it). A terminal that paired with the club key is never offered
a pairing with the code alone afterwards, also after a restart: a forged HELLO cannot downgrade it. A HELLO with
another club key's id gets no offer either, and the director is told to flash that terminal again.

TABLE_TAKEN policy: a sign-in to a table that another terminal holds is refused only while that
terminal is alive (heard within `hold_ms`, 60 s by default; after a host restart every terminal counts as
heard at the start). A spare terminal replacing a broken one is therefore accepted a minute after the
broken one fell silent, or at once when the director seats it with `tenace event seat`: the terminal the event
file seated at the table last (and still there) is let in whoever else is alive, the old terminal having been
heard a second ago or not. The replaced terminal keeps its binding: if it comes back, the results in its journal
are still taken (the store flags any conflict with the spare's), though its own new sign-in to that table is
refused while the spare lives.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping

from tenace.collector.link_key import LinkKey
from tenace.store.link import pairings, record_pairing
from tenace_wire.host_session import HostSession
from tenace_wire.pairing import club_id, event_key

log = logging.getLogger(__name__)

HOLD_MS = 60_000


class Pairing:
    """The terminals' ways of pairing (club key or code alone), as the event file keeps them, and their keys."""

    def __init__(self, conn: sqlite3.Connection, session: HostSession, key: LinkKey,
                 club_key: bytes | None) -> None:
        self.conn = conn
        self.session = session
        self.key = key
        # With the laptop's club key: the event key of the terminals that hold it, and the key's id in their HELLO.
        self.club_id = club_id(club_key).hex() if club_key else None
        self._club_event_key = event_key(key.code, key.nonce, club_key) if club_key else None
        self.ways: dict[int, str] = {}  # terminal -> "club" or "code": how it paired, as the event file keeps it
        self._club_hello: set[int] = set()  # terminals whose HELLO carried this laptop's club key id (this run)
        self._warned: set[tuple[int, str]] = set()  # pairing refusals already logged, once each

    def resume(self) -> None:
        """The ways kept in the event file, each terminal's keys set from its way."""
        for pairing in pairings(self.conn):
            self.ways[pairing.terminal] = pairing.way
            self._use_keys(pairing.terminal)
            if pairing.way == "club" and pairing.club_id != self.club_id:
                log.warning("terminal %d paired with club key %s, which this laptop does not have%s: its frames "
                            "will be refused", pairing.terminal, pairing.club_id,
                            f" (it has {self.club_id})" if self.club_id else "")

    def way_text(self, terminal: int) -> str:
        return "club key" if self.ways.get(terminal) == "club" else "code alone"

    def may_pair(self, terminal: int, club: str) -> bool:
        """Whether to answer a HELLO with an offer: not for another club's key, nor with the code alone to a
        terminal that paired with the club key (a forged HELLO must not downgrade it). Its keys follow the HELLO."""
        if club and club != self.club_id:
            self._warn(terminal, f"club {club}", "terminal %d holds another club key (id %s) than this laptop's (%s):"
                       " flash it again with tenace flash, or it cannot pair", terminal, club,
                       self.club_id or "none: tenace flash --club-key makes one")
            return False
        if not club and self.ways.get(terminal) == "club":
            self._warn(terminal, "code", "terminal %d paired with the club key; a pairing with the code alone is "
                       "refused to it (a forged HELLO, or it lost its key: flash it again)", terminal)
            return False
        if club:
            self._club_hello.add(terminal)
        else:
            self._club_hello.discard(terminal)
        self._use_keys(terminal)
        return True

    def _use_keys(self, terminal: int) -> None:
        """The keys a terminal's frames are checked under: its way's, and while it may be pairing afresh the other
        one, unless that would be a downgrade (see may_pair)."""
        club, code = self._club_event_key, self.key.key
        way = self.ways.get(terminal)
        if club is None:
            keys = []  # the event's key (a terminal with a club key gets no offer: may_pair)
        elif way == "club":
            keys = [club]
        elif terminal in self._club_hello:
            keys = [club, code]
        else:
            keys = [code] if way == "code" else [code, club]
        self.session.use_keys(terminal, keys)

    def paired(self, terminal: int) -> None:
        """After an authenticated frame: keep the terminal's way of pairing when it is new (its first frame under a
        new key), and from then on check its frames under that way's key."""
        way = "club" if self._club_event_key is not None and \
            self.session.key_of(terminal) == self._club_event_key else "code"
        if self.ways.get(terminal) == way:
            return
        try:
            record_pairing(self.conn, terminal, way, self.club_id if way == "club" else None)
        except sqlite3.Error as e:
            log.error("terminal %d: how it paired not kept (%s)", terminal, e)
            return
        self.ways[terminal] = way
        self._club_hello.discard(terminal)
        self._use_keys(terminal)
        if way == "club":
            log.info("terminal %d paired with the club key (id %s)", terminal, self.club_id)
        else:
            # A warning where the club has a key (that terminal lacks it), news where it has none (as all do then).
            log.log(logging.WARNING if self.club_id else logging.INFO, "terminal %d paired with the code alone (no "
                    "club key): whoever recorded its pairing on the radio can find the event key; tenace flash "
                    "--club-key puts the club key on it", terminal)

    def _warn(self, terminal: int, what: str, text: str, *args: object) -> None:
        if (terminal, what) not in self._warned:
            self._warned.add((terminal, what))
            log.warning(text, *args)


def table_holder(bindings: Mapping[int, tuple[int, int]], heard: Mapping[int, int], terminal: int, section: int,
                 table: int, now: int, start: int, hold_ms: int, seated: int | None = None) -> int | None:
    """Another terminal alive at this table, if any (see TABLE_TAKEN in the module's docstring): heard within
    `hold_ms`, one not heard since `start` (the collector's) counting as heard then. None for the terminal the
    event file last seated there (`seated`: `tenace event seat` lets it in at once)."""
    if seated is not None and seated == terminal:
        return None
    for other, where in bindings.items():
        if other != terminal and where == (section, table) and now - heard.get(other, start) < hold_ms:
            return other
    return None
