"""The director's console against a guessing script: a thousand wrong passwords sent at once are answered no faster
than one a `delay_s`, the right password still logs in straight after, and the log sums them up in a few lines."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from event_state import club_with_a_conflict

from tenace.web.app import create_app
from tenace.web.console import REFUSED_DELAY_S, Director
from tenace.web.console.auth import REFUSALS_A_LINE, SINGLE_LINES

PASSWORD = "correct horse battery"
GUESSES = 1000
# The test's spacing: 5 ms, so the thousand guesses take at least 1000 x 5 ms = 5 s here; the console's own is
# REFUSED_DELAY_S (1 s), the same thousand taking at least 1000 s there: no more than 3,600 guesses an hour.
DELAY_S = 0.005


@pytest.mark.slow
def test_a_thousand_guesses_at_once_are_slowed_and_the_password_still_works(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert REFUSED_DELAY_S >= 1.0  # the console's own spacing: one refused login a second at most
    event = club_with_a_conflict(tmp_path / "club.sqlite")
    director = Director(password=PASSWORD, delay_s=DELAY_S)
    app = create_app(event, director=director)

    async def guessing() -> tuple[float, list[tuple[float, int]], int, float]:
        transport = httpx.ASGITransport(app=app, client=("198.51.100.7", 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://console") as client:
            origin = {"Origin": "http://console"}

            async def guess(n: int) -> tuple[float, int]:
                answer = await client.post("/director/login", data={"password": f"guess {n}"}, headers=origin)
                return time.monotonic(), answer.status_code
            started = time.monotonic()
            answers = await asyncio.gather(*(guess(n) for n in range(GUESSES)))
            after = time.monotonic()
            right = await client.post("/director/login", data={"name": "TD Ana", "password": PASSWORD},
                                      headers=origin)
            return started, answers, right.status_code, time.monotonic() - after

    with caplog.at_level(logging.WARNING, logger="tenace.web.console"):
        started, answers, right, right_took = asyncio.run(guessing())

    assert [status for _, status in answers] == [401] * GUESSES
    times = sorted(at - started for at, _ in answers)
    # The k-th answer (from 0) comes no sooner than (k + 1) delays after the guesses were sent: at any moment, no
    # more guesses have been answered than delays have passed. (Answers may bunch when the server is busy, here
    # while it reads the thousand posts at once: each is held until its own turn, never sent before it.)
    too_soon = [k for k, at in enumerate(times) if at < (k + 1) * DELAY_S * 0.99]
    assert not too_soon, f"answered too soon: {too_soon[:5]}"
    assert times[-1] >= GUESSES * DELAY_S * 0.99  # 1000 x 5 ms: at least 5 s for the lot
    # The right password is never kept waiting behind the refusals.
    assert right == 303 and right_took < 1.0

    # The log says so in a few lines, not a thousand: the first ten refusals a line each, then one line a hundred,
    # the rest at the login.
    lines = [r.getMessage() for r in caplog.records if "refused login" in r.getMessage() or "wrong password" in
             r.getMessage()]
    assert len(lines) <= SINGLE_LINES + GUESSES // REFUSALS_A_LINE + 1, lines
    assert lines[:SINGLE_LINES] == ["director's console: a wrong password, from 198.51.100.7"] * SINGLE_LINES
    summed = [re.match(r"director's console: (\d+) more refused logins", line) for line in lines[SINGLE_LINES:]]
    assert SINGLE_LINES + sum(int(m[1]) for m in summed if m) == GUESSES, lines
    assert f"{GUESSES} in all, from 198.51.100.7" in lines[-1] and "before this login" in lines[-1]
