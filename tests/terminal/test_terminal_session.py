"""A scripted three-round session through the real terminal app, its link and the collector. Pytest and MicroPython.

The same file runs under CPython (pytest) and under the MicroPython unix port with a 64 KB heap
(tests/test_terminal_on_micropython.py): the journal is a real file in both.
"""

from session_runner import Simulator


def enter(sim, script):
    """Press the keys of `script`; the screen after the last one, its words joined by single spaces
    (a refusal wraps over two lines)."""
    screens = sim.type(script)
    return " ".join(screens[-1].split())


def test_start_up_screen_then_sign_in_to_round_one():
    sim = Simulator()
    try:
        screen = sim.screen()
        assert "Terminal T01" in screen and "Firmware 0.1.0" in screen and "Battery 87%" in screen, screen
        screen = sim.sign_in(3)
        assert "Round 1  A3" in screen and "NS 3" in screen and "EW 3" in screen, screen
        assert "Boards 1-3" in screen, screen
        screen = enter(sim, "OK")
        assert "Bd 1 Dlr N Vul None" in screen and "Contract _" in screen, screen
    finally:
        sim.close()


def test_three_round_session_with_corrections_director_and_session_end():
    sim = Simulator()
    try:
        sim.sign_in(3)
        sim.press("OK")
        # Round 1. Board 1: 4S by N, lead HK, 11 tricks: eight keys from the preselected board to acceptance.
        screen = enter(sim, "4 S N K H + 1")
        assert "4\u2660 by N" in screen and "+1 11 tricks" in screen and "Lead \u2665K" in screen, screen
        assert "NS +450" in screen and "EW: OK to accept" in screen, screen
        screen = enter(sim, "OK")
        assert "Board 1 saved" in screen and "Bd 2 Dlr E Vul NS" in screen, screen
        # Board 2 passed out: one key, then acceptance.
        screen = enter(sim, "PASS")
        assert "Passed out" in screen and "NS 0" in screen, screen
        assert "Board 2 saved" in enter(sim, "OK")
        # Board 3: 3NT doubled by East, lead S4, 7 tricks in all: down two doubled, vulnerable.
        screen = enter(sim, "3 NT X E 4 S 7")
        assert "3NTX by E" in screen and "-2 7 tricks" in screen and "NS +500" in screen, screen
        assert "NS: OK to accept" in screen, screen
        screen = enter(sim, "OK")
        assert "Round 1 finished" in screen, screen
        assert "NS 3 stays here" in screen and "EW 3 > table 4 EW" in screen, screen
        # Every table has its own copy of the boards here (a dealing machine's club): they do not move.
        assert "Boards >" not in screen and "OK: next round" in screen, screen

        # Round 2 (boards 4-6): the host sent the plan when board 3 arrived.
        screen = enter(sim, "OK")
        assert "Round 2" in screen and "EW 2" in screen and "Boards 4-6" in screen, screen
        sim.press("OK")
        # Board 4: keyed 2H-1 by South, rejected by the opponents (BACK), corrected to 2H=.
        screen = enter(sim, "2 H S 2 C - 1")
        assert "2\u2665 by S" in screen and "-1 7 tricks" in screen and "NS -100" in screen, screen
        screen = enter(sim, "BACK")
        assert "Result _" in screen, screen
        screen = enter(sim, "=")
        assert "= 8 tricks" in screen and "NS +110" in screen, screen
        assert "Board 4 saved" in enter(sim, "OK")
        # Choose board 6 first: board 9 is refused, with the reason.
        screen = enter(sim, "BACK")
        assert "Round 2: boards" in screen, screen
        screen = enter(sim, "9 OK")
        assert "Board 9 is not in this round" in screen, screen
        screen = enter(sim, "4 OK")
        assert "Board 4 done" in screen, screen
        screen = enter(sim, "6 OK")
        assert "Bd 6 Dlr E Vul EW" in screen, screen
        screen = enter(sim, "1 C W A D =")
        assert "1\u2663 by W" in screen and "NS -70" in screen, screen
        sim.press("OK")
        # Board 5 comes next by itself; an impossible +2 on 6D is refused with the limit.
        screen = enter(sim, "6 D N T C + 2")
        assert "6\u2666: at most +1" in screen, screen
        screen = enter(sim, "- 3")
        assert "6\u2666 by N" in screen and "NS -300" in screen, screen
        screen = enter(sim, "OK")
        assert "Round 2 finished" in screen, screen
        sim.press("OK")

        # Round 3 (boards 7-9, the last).
        screen = enter(sim, "OK")
        assert "Bd 7" in screen, screen
        assert "Board 7 saved" in enter(sim, "4 H N Q S = OK")
        # The director erases board 7 (the event's PIN, sent at sign-in); it is keyed again.
        screen = enter(sim, "MENU 2")
        assert "PIN _" in screen, screen
        wrong = "%04d" % ((int(sim.host.pin) + 1) % 10000)
        screen = enter(sim, " ".join(wrong) + " OK")
        assert "Wrong PIN" in screen, screen
        screen = enter(sim, " ".join(sim.host.pin) + " OK 7 OK")  # the event's PIN, from the host
        assert "1 Erase result" in screen, screen
        assert "Erase this result? OK yes, BACK no" in enter(sim, "1")
        screen = enter(sim, "OK")
        assert "Board 7 erased" in screen and "Bd 7" in screen, screen
        assert "Board 7 saved" in enter(sim, "4 H N Q S - 1 OK")
        # Board 8: an artificial adjusted score, A+ to NS and A- to EW.
        screen = enter(sim, "MENU 2 " + " ".join(sim.host.pin) + " OK 8 OK 3 + -")
        assert "Board 8 A+/A- saved" in screen and "Bd 9" in screen, screen
        screen = enter(sim, "5 C X S A H - 1 OK")
        assert "Round 3 finished" in screen and "OK: end of session" in screen, screen
        screen = enter(sim, "OK")
        assert "Session finished" in screen and "Boards entered 9" in screen, screen
        assert "All results sent" in screen, screen

        host = sim.host
        assert host.duplicates() == 0 and not sim.app.pending
        results = [host.result(r, b) for r in (1, 2, 3) for b in range(3 * r - 2, 3 * r + 1)]
        assert results == ["played v0 4S N 11 HK +450", "passed_out v0 Pass", "played v0 3NTX E 7 S4 +500",
                           "played v0 2H S 8 C2 +110", "played v0 6D N 9 CT -300", "played v0 1C W 7 DA -70",
                           "played v2 4H N 9 SQ -100", "adjusted v0 A+ A-", "played v0 5CX S 10 HA -100"], results
        assert len(host.stored()) == 11  # nine boards, one erase, the re-entry of board 7

        # After a reboot the terminal still knows the session is over.
        screen = sim.reboot() and sim.screen()
        assert "Session finished" in screen and "Boards entered 9" in screen, screen
    finally:
        sim.close()


def test_a_howell_round_end_says_where_each_pair_sits_next():
    # Howell, 4 tables: at table 2 pairs 2 (NS) and 4 (EW) play boards 4-6; in round 2 pair 2 sits East-West at
    # table 1 and pair 4 North-South at table 3, while boards 4-6 go to table 4.
    sim = Simulator(movement="howell")
    try:
        screen = sim.sign_in(2)
        assert "Round 1  A2" in screen and "NS 2" in screen and "EW 4" in screen and "Boards 4-6" in screen, screen
        sim.press("OK")
        for board in (4, 5, 6):
            assert "Passed out" in enter(sim, "PASS")
            screen = enter(sim, "OK")
            assert ("Board %d saved" % board) in screen or "Round 1 finished" in screen, screen
        assert "Round 1 finished" in screen, screen
        assert "NS 2 > table 1 EW" in screen and "EW 4 > table 3 NS" in screen, screen
        assert "Boards > table 4" in screen and "OK: next round" in screen, screen
        screen = enter(sim, "OK")
        assert "Round 2" in screen and "NS 3" in screen and "EW 5" in screen and "Boards 13-15" in screen, screen
        assert [sim.host.result(1, b) for b in (4, 5, 6)] == ["passed_out v0 Pass"] * 3
    finally:
        sim.close()


def test_an_individual_shows_each_player_by_seat_and_where_each_sits_next():
    # A 2-table individual: at table 2 players 3 (N), 5 (E), 7 (S) and 6 (W) play boards 1-3; in round 2 player 3
    # sits East at table 1, 5 West at table 1, 7 West at table 2 and 6 East at table 2. Every table has its own
    # copy of the round's boards: they go nowhere.
    sim = Simulator(movement="individual")
    try:
        screen = sim.sign_in(2)
        assert "Round 1  A2" in screen and "N 3  S 7" in screen and "E 5  W 6" in screen, screen
        assert "Boards 1-3" in screen, screen
        sim.press("OK")
        screen = enter(sim, "4 S")
        assert "3+7 v 5+6" in screen, screen  # the partnerships by their players, North's and East's first
        enter(sim, "N K H = OK")
        for _ in (2, 3):
            screen = enter(sim, "PASS")
            screen = enter(sim, "OK")
        assert "Round 1 finished" in screen, screen
        assert "N 3 > table 1 E" in screen and "E 5 > table 1 W" in screen, screen
        assert "S 7 > table 2 W" in screen and "W 6 > table 2 E" in screen, screen
        assert "Boards >" not in screen and "OK: next round" in screen, screen
        screen = enter(sim, "OK")
        assert "Round 2" in screen and "N 4 S 1" in screen and "E 6 W 7" in screen, screen
        assert sim.host.result(1, 1) == "played v0 4S N 10 HK +420", sim.host.result(1, 1)
    finally:
        sim.close()


def test_keys_pressed_fast_at_a_round_end_do_not_skip_where_everyone_moves():
    # PASS, OK, OK as fast as the keypad gives them: the second OK comes while the move screen has just been
    # shown, and is dropped; the screen stays until an OK pressed once the keys have stopped for a moment.
    sim = Simulator()
    try:
        sim.sign_in(3)
        sim.press("OK")
        enter(sim, "PASS OK PASS OK")
        screen = " ".join(sim.burst("PASS OK OK").split())
        assert "Round 1 finished" in screen and "NS 3 stays here" in screen, screen
        assert "EW 3 > table 4 EW" in screen and "OK: next round" in screen, screen
        assert sim.app.screen_name == "round_end" and sim.app.keys_paused()
        screen = sim.burst("OK OK")  # held, or pressed again and again: each restarts the pause
        assert "Round 1 finished" in screen and sim.app.keys_paused(), screen
        assert [sim.host.result(1, b) for b in (1, 2, 3)] == ["passed_out v0 Pass"] * 3
        screen = enter(sim, "OK")  # (press waits, as a player reading the screen does, until it takes keys)
        assert "Round 2" in screen and "EW 2" in screen, screen
    finally:
        sim.close()


def test_an_ok_pressed_twice_at_the_last_round_end_does_not_leave_the_sessions_end():
    sim = Simulator(rounds=1)
    try:
        sim.sign_in(3)
        sim.press("OK")
        screen = enter(sim, "PASS OK PASS OK PASS OK")
        assert "Round 1 finished" in screen and "OK: end of session" in screen, screen
        sim.wait(1000)  # the move screen read
        screen = " ".join(sim.burst("OK OK").split())  # the second OK would start a new sign-in
        assert "Session finished" in screen and sim.app.screen_name == "session_end", screen
    finally:
        sim.close()
