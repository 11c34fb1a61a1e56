"""Reboots and an unreachable host: results wait in the journal until acknowledged. Pytest and MicroPython."""

import os

from session_runner import Simulator
from tenace_terminal.link_files import PLANS_FILE


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
        sim.radio.down = False  # the host receives but its acknowledgements never arrive
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
        # The host is heard again: the link signs in again and sends the pending results until acknowledged.
        sim.radio.down = True
        sim.wait(12000)
        assert not sim.app.pending
        assert sim.host.duplicates() >= 2  # each was stored before the reboot already: stored once
        assert sorted(sim.host.stored()) == [1, 2]
    finally:
        sim.close()


def test_results_wait_in_the_journal_while_the_host_is_unreachable():
    sim = Simulator()
    try:
        sim.sign_in(1)
        sim.press("OK")
        sim.radio.up = False  # out of radio range: nothing arrives at the host
        enter(sim, "4 S N K H + 1 OK")
        enter(sim, "3 NT S 5 D = OK")
        assert sorted(sim.app.pending) == [1, 2]
        sim.wait(10000)
        assert not sim.host.stored()
        sim.radio.up = True
        sim.wait(12000)
        assert not sim.app.pending and sorted(sim.host.stored()) == [1, 2]
    finally:
        sim.close()


def test_sign_in_waits_for_the_host_and_a_refusal_is_shown():
    sim = Simulator()
    try:
        sim.radio.up = sim.radio.down = False
        screen = sim.sign_in(4)
        assert "Signing in..." in screen, screen
        sim.wait(7000)  # the link sends the sign-in again and again
        sim.radio.up = sim.radio.down = True
        sim.wait(12000)
        screen = sim.screen()
        assert "Round 1  A4" in screen, screen
    finally:
        sim.close()
    sim = Simulator()
    try:
        screen = sim.sign_in(9)  # four tables: the host refuses, and says why
        screen = " ".join(sim.screen().split())
        assert "No table A9" in screen and "Table 9_" in screen, screen
    finally:
        sim.close()


def test_with_the_host_out_of_reach_the_table_plays_on_from_the_plans_it_keeps():
    sim = Simulator(rounds=3, boards_per_round=1)
    try:
        sim.sign_in(1)  # the host sends the plans of all three rounds
        sim.radio.up = sim.radio.down = False  # then the laptop is shut
        for number, board in ((1, 1), (2, 2), (3, 3)):
            if number > 1:
                screen = enter(sim, "OK")  # from the last round's end: this round's plan, kept
                assert "Round %d" % number in screen and "Boards %d" % board in screen, screen
            screen = enter(sim, "OK")
            assert "Bd %d" % board in screen, screen
            screen = enter(sim, "4 S N K H = OK")
            assert "Round %d finished" % number in screen, screen
        screen = enter(sim, "OK")
        assert "Session finished" in screen and "Boards entered 3" in screen, screen
        assert sorted(sim.app.pending) == [1, 2, 3] and not sim.host.stored()
        sim.radio.up = sim.radio.down = True
        sim.wait(12000)
        assert not sim.app.pending and sorted(sim.host.results()) == [1001, 2002, 3003]
    finally:
        sim.close()


def test_a_round_the_terminal_has_no_plan_for_is_asked_for_when_the_host_is_back():
    sim = Simulator(rounds=2, boards_per_round=1)
    try:
        sim.sign_in(1)
        sim.press("OK")
        os.remove(sim.storage + "/" + PLANS_FILE)  # the kept plans are lost
        sim.radio.up = sim.radio.down = False  # the board's result and the next plan are held up
        screen = enter(sim, "4 S N K H = OK")
        assert "Round 1 finished" in screen, screen
        screen = enter(sim, "OK")
        assert "Waiting for round 2" in screen, screen
        assert "Waiting for the host" in enter(sim, "OK")
        sim.radio.up = sim.radio.down = True
        sim.wait(12000)
        screen = sim.screen()
        assert "Round 2" in screen and "Boards 2" in screen, screen
    finally:
        sim.close()


def test_more_results_than_the_link_has_in_flight_wait_in_it_and_all_arrive_once():
    # 34 results keyed out of range, a reboot among them: the session's outbox takes 32, the link keeps the rest.
    sim = Simulator(rounds=1, boards_per_round=34)
    try:
        sim.sign_in(1)
        sim.press("OK")
        sim.radio.up = sim.radio.down = False
        for board in range(1, 35):
            sim.type("PASS OK")
            if board == 20:
                sim.reboot()
                sim.press("OK")  # from the round's screen to the next board
        assert len(sim.app.pending) == 34 and not sim.host.stored()
        sim.radio.up = sim.radio.down = True
        sim.wait(20000)
        assert not sim.app.pending and sorted(sim.host.stored()) == list(range(1, 35))
        assert sim.host.duplicates() == 0
    finally:
        sim.close()
