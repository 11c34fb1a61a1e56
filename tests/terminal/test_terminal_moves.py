"""The director changes the movement mid-session (tenace move): the terminals show it without a restart. Pytest and
MicroPython.

A closed table or an absent pair makes a sit-out round: the terminal shows who is absent, takes no result and
goes on to where everyone moves next; a swap changes the pairs of later rounds and the moves of the current one.
"""

from session_runner import Simulator

MOVES_MS = 1500  # the collector looks for movement changes every second


def words(screen):
    return " ".join(screen.split())


def play_round(sim):
    """Three passed-out boards, accepted: the round's end screen."""
    screens = sim.type("OK PASS OK PASS OK PASS OK")
    return words(screens[-1])


def test_a_table_closed_from_round_two_sits_out_and_takes_no_result():
    sim = Simulator()
    try:
        sim.sign_in(3)
        assert "closed" in sim.host.move("close", 3, 2)
        sim.wait(MOVES_MS)
        screen = play_round(sim)
        assert "Round 1 finished" in screen, screen
        screen = words(sim.press("OK"))
        assert "Round 2" in screen and "NS: absent" in screen and "EW: absent" in screen, screen
        assert "Sit-out round. OK" in screen and "Boards 4-6" in screen, screen
        screen = words(sim.press("OK"))
        assert "Round 2 finished" in screen, screen
        screen = words(sim.press("OK"))
        assert "Round 3" in screen and "Sit-out round" in screen, screen
        sim.type("OK OK")
        assert sorted(sim.host.results()) == [1001, 1002, 1003], sim.host.results()
    finally:
        sim.close()


def test_a_swap_changes_the_moves_of_the_round_under_way_and_the_pairs_of_the_next():
    sim = Simulator()
    try:
        screen = words(sim.sign_in(3))
        assert "NS 3" in screen, screen
        sim.host.move("swap", "NS3:NS4", 2)
        sim.wait(MOVES_MS)
        screen = play_round(sim)
        assert "NS 3 > table 4 NS" in screen, screen
        screen = words(sim.press("OK"))
        assert "Round 2" in screen and "NS 4" in screen, screen
    finally:
        sim.close()


def test_a_late_pair_starts_its_table_at_the_round_it_came_and_a_pair_gone_leaves_a_sit_out():
    sim = Simulator()
    try:
        sim.host.move("late", "NS3", 2)
        screen = words(sim.sign_in(3))
        assert "Round 2" in screen and "NS 3" in screen, screen
        sim.host.move("leave", "EW1", 3)  # EW 1 would be at table 3 in round 3
        sim.wait(MOVES_MS)
        play_round(sim)
        screen = words(sim.press("OK"))
        assert "Round 3" in screen and "EW: absent" in screen and "NS 3" in screen, screen
        assert "Sit-out round" in screen, screen
    finally:
        sim.close()


def test_a_change_that_comes_after_the_table_played_the_round_leaves_the_round_as_played():
    sim = Simulator()
    try:
        sim.sign_in(3)
        play_round(sim)
        sim.press("OK")
        play_round(sim)
        sim.press("OK")
        sim.radio.up = sim.radio.down = False  # the laptop out of reach: round 3 is played from the kept plan
        screen = play_round(sim)
        assert "Round 3 finished" in screen, screen
        sim.press("OK")  # the session's end at this table
        assert sim.app.session_over
        # Meanwhile the director closed table 3 for round 3: the change reaches the table too late.
        assert "closed" in sim.host.move("close", 3, 3)
        sim.radio.up = sim.radio.down = True
        sim.wait(MOVES_MS * 4)
        assert sim.app.session_over and not sim.app.pending, sim.app.pending  # not reopened, every result answered
        assert sim.app.screen_name == "session_end", sim.screen()
        assert sorted(sim.host.results()) == [1001, 1002, 1003, 2004, 2005, 2006]  # round 3's refused: a sit-out
    finally:
        sim.close()


def test_a_board_keyed_when_the_round_becomes_a_sit_out_is_not_saved():
    sim = Simulator()
    try:
        sim.sign_in(3)
        screen = " ".join(sim.type("OK 4 S N K H =")[-1].split())
        assert "NS: OK to accept" in screen or "EW: OK to accept" in screen, screen
        assert "closed" in sim.host.move("close", 3, 1)  # table 3 closed from round 1, while board 1 is keyed
        sim.wait(MOVES_MS)
        screen = words(sim.press("OK"))
        assert "Sit-out round" in screen and "NS: absent" in screen, screen
        assert not sim.app.pending and sim.host.results() == {}
    finally:
        sim.close()
