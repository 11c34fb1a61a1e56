"""The sleepy link: a terminal whose receiver is off between its polls still gets quickly what the host pushes.
Pytest and MicroPython.

The radio hears only while the link listens (SleepyRadio) and loses frames both ways. The host answers each frame
from a terminal with a MORE while frames still wait for it: the terminal keeps listening, so that a lost frame sent
again, or the next batch of a push, reaches it in the same exchange rather than at a poll 6 s later. A movement
change reaches a table that keys nothing (held by the director) within 15 s of the simulator's clock, and one idle
for twenty minutes (before the first round, a sit-out) as quickly: its polls do not grow apart.
"""

from session_runner import Simulator
from tenace_terminal.link_files import DEALS_FILE, PLANS_FILE

TABLE = 3
ROUNDS = 5  # 3 boards a round: 15 boards, each with its hand record (the lead is checked)
LEAD = {"lead": "warn"}


def kept(sim, name):
    """Number -> what the terminal keeps in its file `name` (link.plans, link.deals), in hex; the last line wins."""
    out = {}
    try:
        with open(sim.storage.rstrip("/") + "/" + name) as f:
            text = f.read()
    except OSError:
        return out
    for line in text.split("\n"):
        number, _, payload = line.partition(" ")
        if payload:
            out[int(number)] = payload
    return out


def missing(sim):
    """The rounds whose plan, as the host holds it now, the terminal does not keep."""
    plans = kept(sim, PLANS_FILE)
    return [n for n, plan in sorted(sim.host.plans(TABLE).items()) if plans.get(n) != plan]


def ms_until(sim, done, limit_ms, step_ms=100):
    """Simulated milliseconds until done(), the clock moved step_ms at a time (nobody keys anything); None when
    limit_ms pass first."""
    start = sim.clock.now
    while not done():
        if sim.clock.now - start > limit_ms:
            return None
        sim.step(step_ms)
    return sim.clock.now - start


def test_a_terminal_told_more_waits_keeps_listening_until_it_has_everything_then_sleeps():
    sim = Simulator(sleepy=True, settings=LEAD, deals=True, rounds=ROUNDS, loss=0.25)
    try:
        sim.sign_in(TABLE)
        # The sign-in's push: the later rounds' plans and the boards' hand records, dozens of frames, a quarter of
        # them lost each way. Told that more waits, the terminal listens on: each frame lost goes again a few
        # hundred ms later and is heard, not at the terminal's next poll, 6 s on.
        took = ms_until(sim, lambda: not missing(sim) and len(kept(sim, DEALS_FILE)) == ROUNDS * 3, 8000)
        assert took is not None, "after 8 s: plans missing %s, %d hand records kept, %d frames sent while deaf" % (
            missing(sim), len(kept(sim, DEALS_FILE)), sim.radio.deaf)
        # Told that nothing more waits (or, that word lost, 2 s after the last MORE), it turns its receiver off again.
        assert ms_until(sim, lambda: not sim.radio.ear, 2500, 10) is not None
        polls = 0
        for _ in range(300):  # and keeps it off but for its polls, each answered at once with "nothing waits"
            sim.step(100)
            if sim.radio.ear:
                polls += 1
                assert ms_until(sim, lambda: not sim.radio.ear, 50, 10) is not None
        assert polls >= 2, polls
    finally:
        sim.close()


def test_a_movement_change_reaches_a_held_table_within_15_s():
    sim = Simulator(sleepy=True, settings=LEAD, deals=True, rounds=ROUNDS, loss=0.1)
    try:
        sim.sign_in(TABLE)
        assert ms_until(sim, lambda: not missing(sim) and len(kept(sim, DEALS_FILE)) == ROUNDS * 3, 20000) is not None
        sim.wait(5000)
        assert not sim.radio.ear  # asleep between polls
        # The director: EW 1 leaves from round 3 (when it would come to table 3). The players key nothing until the
        # table has the new plans.
        assert "EW 1" in sim.host.move("leave", "EW1", 3)
        assert 3 in missing(sim), missing(sim)
        assert ms_until(sim, lambda: not missing(sim), 15000) is not None, missing(sim)
    finally:
        sim.close()


def test_a_change_reaches_a_table_idle_for_twenty_minutes_within_15_s_and_the_next_as_quickly():
    sim = Simulator(sleepy=True, rounds=ROUNDS, loss=0.1)
    try:
        sim.sign_in(TABLE)
        # Twenty minutes without a key (the players not there yet, or sitting out): its polls stay 6 s apart (they
        # were a minute apart after 15 minutes, and the director's first change took up to 60 s to reach it).
        for _ in range(20 * 60):
            sim.step(1000)
        # The change comes just after a poll (the worst moment): it waits for the next one.
        assert ms_until(sim, lambda: sim.radio.ear, 61000, 10) is not None
        assert ms_until(sim, lambda: not sim.radio.ear, 2500, 10) is not None
        assert "EW 1" in sim.host.move("leave", "EW1", 3)
        assert 3 in missing(sim), missing(sim)
        assert ms_until(sim, lambda: not missing(sim), 15000) is not None, missing(sim)
        # The director's next change, once the table has been quiet again for a while.
        sim.wait(30000)
        assert "NS 3" in sim.host.move("swap", "NS3:NS4", 5)
        assert missing(sim), "the swap changed no plan of table %d" % TABLE
        assert ms_until(sim, lambda: not missing(sim), 15000) is not None, missing(sim)
    finally:
        sim.close()
