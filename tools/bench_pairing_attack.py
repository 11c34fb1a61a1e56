#!/usr/bin/env python3
"""Pairing attack benchmark: how long an eavesdropper takes to try every pairing code against a recorded pairing.

Two terminals pair with a collector on a simulated channel that records the air: one with the club key, one with
the code alone. Then, as the eavesdropper would, every code (10^6 by default) is tried against each recording:
against the code-alone pairing the real code is found (the figure auth.py's threat model quotes); against the
club-key pairing no code gives the key, neither with the code alone nor under a guessed club key.
Prints the codes tried, the time and the codes that matched; one core of this machine, CPython's hmac.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from pathlib import Path

from pairing_attack import (
    Derive,
    Recording,
    RecordingChannel,
    code_alone,
    matching_codes,
    recording_of,
    with_club_key,
)

from tenace.collector import Collector, link_key
from tenace.movement import mitchell
from tenace.simulation.loopback import Loopback, SimulatedTerminal
from tenace.store import create_event

CLUB = bytes(range(100, 116))


def recorded(folder: Path) -> tuple[str, Recording, Recording]:
    """The event's code and the recordings of a pairing with the club key and of one with the code alone."""
    conn = create_event(folder / "bench.sqlite", name="Pairing attack", sections={"A": mitchell(3, 2)})
    try:
        code = link_key(conn).code
        collector = Collector(conn, None, random.Random(1).getrandbits, club_key=CLUB)
        terminals = [SimulatedTerminal(101, 0, 1, code, random.Random(2), club=CLUB),
                     SimulatedTerminal(102, 0, 2, code, random.Random(3))]
        channel = RecordingChannel(random.Random(4))
        loop = Loopback(collector, terminals, channel)
        if not loop.run_until(loop.signed_in, 10_000):
            raise SystemExit("the terminals did not sign in")
        return code, recording_of(channel.heard, 101), recording_of(channel.heard, 102)
    finally:
        conn.close()


def attack(name: str, recording: Recording, codes: int, derive: Derive) -> list[str]:
    start, cpu = time.perf_counter(), time.process_time()
    found = list(matching_codes(recording, range(codes), derive))
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    # CPU time as well: on a shared machine the wall clock also counts other processes' turns.
    print(f"{name}: {codes:,} codes in {took:.2f} s ({cpu:.2f} s of CPU, {codes / cpu:,.0f} codes a CPU second); "
          f"matched: {found or 'none'}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--codes", type=int, default=10 ** 6, help="codes tried, from 000000 (default: all 10^6)")
    args = parser.parse_args(argv)
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        code, with_club, without = recorded(Path(tmp))
    print(f"the event's code: {code}")
    found = attack("code alone (v1), recorded pairing", without, args.codes, code_alone)
    club_alone = attack("club key (v2) pairing, tried with the code alone", with_club, args.codes, code_alone)
    guessed = attack("club key (v2) pairing, tried under a guessed club key", with_club, args.codes,
                     with_club_key(bytes(16)))
    ok = (code in found or int(code) >= args.codes) and not club_alone and not guessed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
