"""Calling the director (MENU then 5) and the round clock, against the real collector: the call is stored once, the
director's acknowledgement shows "Director coming", the clock shows the minutes left and "move" when they are up.

Pytest and MicroPython (the same file; see tests/test_terminal_on_micropython.py).
"""

from table_steps import said, started


def bottom(sim):
    return sim.screen().split("\n")[-1]


def test_a_call_reaches_the_director_and_the_answer_the_table():
    sim = started()
    try:
        assert "5 Call director" in said(sim, "MENU")
        screen = said(sim, "5")
        assert "Director called" in screen, screen
        assert sim.host.calls() == ["1 1 1 -1 0"]  # table 1, round 1, its first call, no clock, not answered yet
        sim.wait(3000)  # the link's retransmissions change nothing: one call
        assert sim.host.calls() == ["1 1 1 -1 0"]
        assert "Contract _" in said(sim, "OK")  # back where the menu was opened; play goes on meanwhile
        assert sim.host.acknowledge() == 1
        sim.wait(7000)  # the COMING goes at the terminal's next poll
        assert bottom(sim) == "Director coming", sim.screen()
        assert "Contract 4" in said(sim, "4")  # the next key clears it
        # A second call has its own number; the answer to the first does not answer it.
        said(sim, "MENU 5")
        assert sim.host.calls()[0] == "1 1 2 -1 0"
        assert "Director called" in sim.screen()
        assert sim.host.acknowledge() == 1
        sim.wait(7000)
        assert "Director coming" in sim.screen(), sim.screen()
        assert sim.app.faults == 0
    finally:
        sim.close()


def test_a_call_made_before_the_link_has_signed_in_again_goes_once_it_has():
    sim = started()
    try:
        sim.radio.up = sim.radio.down = False  # the laptop out of reach: after the reboot the link cannot sign in
        sim.reboot()
        assert "Director called" in said(sim, "MENU 5")
        sim.wait(3000)
        assert sim.host.calls() == []
        sim.radio.up = sim.radio.down = True
        sim.wait(15000)  # the link signs in again by itself, then the call goes
        assert sim.host.calls() == ["1 1 1 -1 0"]
        assert sim.app.faults == 0 and sim.link.faults == 0
    finally:
        sim.close()


def test_the_round_clock_counts_down_to_move():
    sim = started()
    try:
        assert 290 <= sim.host.clock(1, 5, 0) <= 300
        sim.wait(7000)  # the CLOCK goes at the terminal's next poll
        assert bottom(sim) != "5 min left"  # the contract screen keeps its hint in the last row
        assert "5 min left" in said(sim, "MENU 3"), sim.screen()  # on the ranking screen
        said(sim, "BACK")
        # The director sets it again: a round nearly over.
        assert sim.host.clock(1, 1, 40) <= 20
        sim.wait(7000)  # (its next poll)
        assert "1 min left" in said(sim, "MENU 3"), sim.screen()
        said(sim, "BACK")
        sim.wait(24000)  # the screen is drawn afresh every 10 s while a clock runs
        assert bottom(sim) == "Time up: move!", sim.screen()  # "move" takes the last row on any screen
        said(sim, "MENU 5")
        assert sim.host.calls()[0] == "1 1 1 0 0"  # the call says how many minutes the clock showed: none left
        assert bottom(sim) == "Time up: move!", sim.screen()
        assert sim.host.clock(1, 0, 0) == 0  # the director stops the clock
        sim.wait(7000)
        assert "move" not in sim.screen() and "min left" not in sim.screen(), sim.screen()
    finally:
        sim.close()
