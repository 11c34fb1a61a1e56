"""After a board, the players see its deal and what each declarer makes double dummy, with par (screens/deal.py).

Against the real collector, whose event file keeps the fixed deals and their analysis (micropython/deals.py).
Pytest and MicroPython (the same file; see tests/test_terminal_on_micropython.py).
"""

from deals import ANALYSES, deal, hand
from session_runner import Simulator
from table_steps import said

SUITS = "\u2660\u2665\u2666\u2663"


def hand_line(board, seat):
    """What the deal screen shows for `seat`: "N♠AK7 ♥Q2 ♦T98 ♣J654", suit by suit with a space between two (a suit
    sign alone for a void), in the 21 columns."""
    suits = hand(deal(board), seat).split(".")
    line = seat + " ".join([SUITS[i] + suits[i] for i in range(4)])
    assert len(line) == 21
    return line


def makeable_line(board, seat):
    """What the second page shows for declarer `seat`: the level made in NT, spades .. clubs ("-": none)."""
    tricks = ANALYSES[board - 1][0]
    declarer = "NESW".find(seat)
    cells = ""
    for strain in (4, 3, 2, 1, 0):
        n = int(tricks[5 * declarer + strain], 16)
        cells += "%3s" % (n - 6 if n > 6 else "-")
    return seat + cells


def east_holds(board):
    """The keys of a lead East holds (against a contract by North): rank then suit."""
    east = hand(deal(board), "E").split(".")
    for i in range(4):
        if east[i]:
            return east[i][0] + " " + "SHDC"[i]
    raise AssertionError("East has no cards")


def play(sim, board):
    """4♠ by North, a lead East holds, made: up to the summary, then OK (the opponents accept)."""
    sim.type("4 S N " + east_holds(board) + " =")
    return said(sim, "OK")


def started(settings, deals=True, analysed=True):
    sim = Simulator(settings=settings, deals=deals, analysed=analysed)
    sim.sign_in(1)
    sim.press("OK")
    return sim


def test_after_the_traveller_4_shows_the_hands_then_the_makeable_contracts_and_par():
    sim = started({"lead": "warn", "traveller": True})
    try:
        screen = play(sim, 1)
        assert "Board 1 traveller" in screen and "OK: next 4: deal" in screen, screen
        sim.press("4")
        lines = sim.screen().split("\n")
        assert lines[0].startswith("Bd 1 Dlr N Vul None"), lines
        assert lines[1:5] == [hand_line(1, seat) for seat in "NESW"], lines
        assert lines[6] == "DOWN: more, OK: back", lines
        sim.press("DOWN")
        lines = sim.screen().split("\n")
        assert lines[0].startswith("Bd 1 makeable") and lines[1] == "  NT  \u2660  \u2665  \u2666  \u2663", lines
        assert lines[2:6] == [makeable_line(1, seat) for seat in "NSEW"], lines
        # Board 1's deal: N takes 6 in NT, 9 in spades, 5 in hearts, 9 in diamonds, 4 in clubs.
        assert lines[2] == "N  -  3  -  3  -", lines
        assert lines[6] == "Par NS +100" and ANALYSES[0][1] == 100, lines
        assert lines[7] == "BACK: return", lines  # board 2 is not played yet: nothing more to see
        assert "Bd 1 makeable" in said(sim, "DOWN")
        assert "UP/DOWN, or OK: back" in said(sim, "7")
        assert "Bd 1 Dlr N" in said(sim, "UP")
        assert "Board 1 traveller" in said(sim, "OK")  # back where it was opened
        assert "Bd 2 Dlr E" in said(sim, "OK")  # and on to the next board as before
    finally:
        sim.close()


def test_the_menu_shows_the_boards_played_here_and_never_one_still_to_play():
    sim = started({"lead": "force"})
    try:
        screen = said(sim, "MENU")
        assert "4 Deal" not in screen, screen  # nothing played yet
        assert "Choose a number or BACK" in said(sim, "4")
        sim.press("BACK")
        screen = play(sim, 1)
        assert "Bd 2 Dlr E" in screen and "Board 1 saved" in screen, screen  # no traveller: straight on
        sim.type("3 H")
        assert "4 Deal" in said(sim, "MENU")
        lines = said(sim, "4")
        assert "Bd 1 Dlr N" in lines and hand_line(1, "W") in sim.screen(), sim.screen()
        assert "Contract 3\u2665" in said(sim, "BACK")  # back to the entry as it was
        sim.type("BACK BACK")
        play(sim, 2)
        sim.reboot()  # the deals and their analyses are in the journal's round plan
        # Board 2 was played last: the menu opens on it, board 1 is one board up, board 3 (unplayed) never shows.
        screen = said(sim, "MENU 4")
        assert "Bd 2 Dlr E Vul NS" in screen, screen
        screen = said(sim, "DOWN")
        assert "Bd 2 makeable" in screen and "Par EW +400" in screen and "BACK: return" in screen, screen
        assert "Bd 2 makeable" in said(sim, "DOWN")
        assert "Bd 1 makeable" in said(sim, "UP UP")
        assert "Bd 1 Dlr N" in said(sim, "UP")
        assert "Bd 1 Dlr N" in said(sim, "UP")
        assert "Round 1" in said(sim, "OK")  # back where the menu was opened after the reboot
        assert "Bd 3 Dlr S" in said(sim, "OK")
    finally:
        sim.close()


def test_the_deals_stay_when_the_director_changes_the_movement_under_the_round():
    sim = Simulator(settings={"lead": "warn", "traveller": True}, deals=True)
    try:
        sim.sign_in(1)
        assert "NS 1" in said(sim, "")
        sim.host.move("swap", "NS1:NS2", 1)  # before the first result: the table's round plan changes
        sim.wait(3000)
        assert "NS 2" in said(sim, ""), sim.screen()
        sim.press("OK")
        play(sim, 1)
        sim.type("4 DOWN")
        assert makeable_line(1, "W") in sim.screen() and "Par NS +100" in sim.screen(), sim.screen()
    finally:
        sim.close()


def test_a_deal_without_its_analysis_shows_the_hands_only():
    sim = started({"lead": "warn", "traveller": True}, analysed=False)
    try:
        play(sim, 1)
        screen = said(sim, "4")
        assert hand_line(1, "S") in sim.screen() and "BACK: return" in screen, screen
        assert "makeable" not in said(sim, "DOWN")
        assert "Board 1 traveller" in said(sim, "BACK")
    finally:
        sim.close()


def test_without_hand_records_nothing_changes():
    sim = started({"lead": "on", "traveller": True}, deals=False)
    try:
        sim.type("4 S N K H =")
        screen = said(sim, "OK")
        assert "OK: next board" in screen and "4: deal" not in screen, screen
        assert "Board 1 traveller" in said(sim, "4") and "OK: next board" in sim.screen()
        screen = said(sim, "MENU")
        assert "3 Ranking" in screen and "4 Deal" not in screen, screen
        assert "Choose a number or BACK" in said(sim, "4")
    finally:
        sim.close()


def test_a_lead_kept_against_the_hand_record_is_marked_on_the_summary_and_follows_the_declarer():
    sim = started({"lead": "warn"})
    try:
        north = hand(deal(1), "N").split(".")
        suit = next(i for i in range(4) if north[i])
        card = north[suit][0] + " " + "SHDC"[suit]  # a card North holds: not East's, the leader against North
        shown = SUITS[suit] + north[suit][0]
        assert "not in E's hand" in said(sim, "4 S N " + card)
        screen = said(sim, "OK =")  # OK keeps it
        assert "Lead %s: E lacks it" % shown in screen and "EW: OK to accept" in screen, screen
        # The declarer changed from the summary, one key: West's left-hand opponent, North, holds the card.
        screen = said(sim, "W")
        assert "4\u2660 by W" in screen and "Lead %s" % shown in screen and "lacks" not in screen, screen
        assert "NS: OK to accept" in screen, screen
        assert "Board 1 saved" in said(sim, "OK")
        assert sim.host.result(1, 1).startswith("played v0 4S W 10 "), sim.host.result(1, 1)
    finally:
        sim.close()


def test_a_declarer_changed_on_the_summary_sends_a_forced_lead_back_to_be_corrected():
    sim = started({"lead": "force"})
    try:
        screen = said(sim, "4 S N " + east_holds(1) + " =")
        assert "4\u2660 by N" in screen and "EW: OK to accept" in screen, screen
        screen = said(sim, "W")  # North leads against West, and the card is East's
        assert "not in N's hand: correct it" in screen and "Lead by N" in screen, screen
        assert sim.app.screen_name == "lead" and sim.app.entry.declarer == "W"
    finally:
        sim.close()
