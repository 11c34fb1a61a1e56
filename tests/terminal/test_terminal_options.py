"""Host settings: the traveller after each result, player numbers. Pytest and MicroPython."""

from session_runner import Simulator


def enter(sim, script):
    """Press the keys of `script`; the screen after the last one, its words joined by single spaces
    (a refusal wraps over two lines)."""
    screens = sim.type(script)
    return " ".join(screens[-1].split())


def test_traveller_and_percentage_after_acceptance():
    sim = Simulator(settings={"traveller": True})
    try:
        # Two other tables have played board 1 already.
        assert sim.host.enter(3, 1, 1, "3NT", "S", 9) == "stored"
        assert sim.host.enter(4, 1, 1, "4S", "N", 9) == "stored"
        sim.sign_in(2)
        sim.press("OK")
        sim.type("4 S N K H + 1")
        screen = sim.press("OK")
        assert "Board 1 traveller" in screen, screen
        lines = screen.split("\n")
        expected = [" 2-2  4\u2660   N +1   450", " 3-3  3NT  S  =   400", " 4-4  4\u2660   N -1   -50"]
        assert lines[1:4] == expected, lines
        # Three of the board's four results are in: the top is factored up to four (Law 78A).
        assert "NS 94.4%  EW 5.6%" in screen, screen
        screen = sim.press("OK")
        assert "Bd 2" in screen, screen
    finally:
        sim.close()


def test_player_numbers_required_then_optional():
    sim = Simulator(settings={"players": "required"})
    try:
        sim.sign_in(1)
        screen = sim.press("OK")
        assert "Player numbers" in screen, screen
        screen = sim.press("OK")
        assert "North: number needed" in screen, screen
        enter(sim, "1 0 1 OK 1 0 2 OK 1 0 3 OK 1 0 4")
        screen = sim.press("OK")
        assert "Bd 1" in screen, screen
        assert sim.host.stored()[1] == "players 101 102 103 104", sim.host.stored()
    finally:
        sim.close()
    sim = Simulator(settings={"players": "optional"})
    try:
        sim.sign_in(1)
        screen = enter(sim, "OK OK OK OK OK")
        assert "Bd 1" in screen, screen
        assert sim.host.stored()[1] == "players 0 0 0 0", sim.host.stored()
    finally:
        sim.close()


def test_the_ranking_so_far_from_the_menu_names_each_pair_with_its_direction():
    sim = Simulator(rounds=1, boards_per_round=1)
    try:
        assert sim.host.enter(1, 1, 1, "3NT", "S", 9) == "stored"  # two other tables have played board 1
        assert sim.host.enter(3, 1, 1, "4S", "N", 9) == "stored"
        sim.sign_in(2)
        sim.type("OK 4 S N K H + 1 OK")
        screen = sim.type("MENU 3")[-1]
        lines = screen.split("\n")
        assert lines[0].strip() == "Ranking", screen
        # Table 2's NS made 450 against 400 and -50: top of the NS field; its EW pair, also number 2, bottom of
        # the EW field: the two pairs numbered 2 told apart by their direction.
        rows = [line.split() for line in lines[1:6]]
        assert ["1", "NS", "2", "100%"] in rows and ["3", "EW", "2", "0%"] in rows, lines
        assert "OK: ask again" in screen, screen
        assert "NS 1" in sim.type("DOWN")[-1]  # the sixth line, scrolled into view
        assert "Round 1 finished" in sim.type("BACK")[-1]
    finally:
        sim.close()
