"""Reboots and an unreachable host: results wait in the journal until acknowledged. Pytest and MicroPython."""

from session_runner import Simulator


def enter(sim, script):
    """Press the keys of `script`; the screen after the last one, its words joined by single spaces
    (a refusal wraps over two lines)."""
    screens = sim.type(script)
    return " ".join(screens[-1].split())


def test_reboot_resumes_the_round_with_its_pending_results():
    sim = Simulator()
    try:
        sim.sign_in(3)
        sim.press("OK")
        sim.host.ack = False  # the host receives but never acknowledges
        enter(sim, "4 S N K H + 1 OK")
        enter(sim, "PASS OK")
        pending = sorted(sim.app.pending)
        assert pending == [1, 2], pending
        sim.reboot()
        assert sorted(sim.app.pending) == pending and sim.app.plan["round"] == 1
        screen = sim.screen()
        assert "Round 1" in screen and "2 of 3 entered" in screen, screen
        screen = enter(sim, "OK")
        assert "Bd 3" in screen, screen
        # The host comes back: the pending results are sent again until acknowledged, oldest first.
        sim.host.ack = True
        sim.wait(8000)
        assert not sim.app.pending
        assert sim.host.duplicates >= 2  # each was received before the reboot already: counted once
        assert len(sim.host.received) == 2
    finally:
        sim.close()


def test_results_wait_in_the_journal_while_the_host_is_unreachable():
    sim = Simulator()
    try:
        sim.sign_in(1)
        sim.press("OK")
        sim.link.up = False  # out of radio range: nothing arrives at the host
        enter(sim, "4 S N K H + 1 OK")
        enter(sim, "3 NT S 5 D = OK")
        assert sorted(sim.app.pending) == [1, 2]
        sim.wait(10000)
        assert not sim.host.received
        sim.link.up = True
        sim.wait(10000)
        assert not sim.app.pending and sorted(sim.host.received) == [1, 2]
    finally:
        sim.close()


def test_sign_in_waits_for_the_host_and_a_refusal_is_shown():
    sim = Simulator()
    try:
        sim.host.online = False
        screen = sim.sign_in(4)
        assert "Signing in..." in screen, screen
        sim.wait(7000)  # asked again every 3 s
        sim.host.online = True
        sim.wait(4000)
        screen = sim.screen()
        assert "Round 1  A4" in screen, screen
    finally:
        sim.close()
    sim = Simulator()
    try:
        sim.host.online = False
        sim.sign_in(9)
        sim.link.inbox.append('{"type": "message", "text": "No table 9 in section A"}')
        sim.settle()
        screen = " ".join(sim.screen().split())
        assert "No table 9 in section A" in screen and "Table 9_" in screen, screen
    finally:
        sim.close()


def test_the_next_round_is_asked_for_when_it_is_late():
    sim = Simulator(rounds=2, boards_per_round=1)
    try:
        sim.sign_in(1)
        sim.press("OK")
        sim.host.online = False  # the board's result and the next plan are held up
        screen = enter(sim, "4 S N K H = OK")
        assert "Round 1 finished" in screen, screen
        screen = enter(sim, "OK")
        assert "Waiting for round 2" in screen, screen
        assert "Waiting for the host" in enter(sim, "OK")
        sim.host.online = True
        sim.wait(4000)
        screen = sim.screen()
        assert "Round 2" in screen and "Boards 2" in screen, screen
    finally:
        sim.close()
