"""The simulator's scripted players (simulation/boards/scripted_player.py) play a whole session through the real app.

Their results are a function of (seed, table, board) alone, so a session under any faults is the same
session; here the collector stores exactly what board_result says, keyed through the real screens.
"""

from deals import deal, hand
from scripted_player import Player, board_result
from session_runner import Simulator

from tenace_rules.board import vulnerability
from tenace_rules.contract import Contract
from tenace_rules.score import ns_score


def expected_summary(result, board):
    level, strain, doubling, declarer, lead, tricks = result
    if not level:
        return "passed_out v0 Pass"
    contract = Contract(level, strain, doubling)
    score = ns_score(contract, declarer, vulnerability(board), tricks)
    return "played v0 %s %s %d %s %s" % (contract.text(), declarer, tricks, lead[1] + lead[0],
                                          "%+d" % score if score else "0")


def test_results_depend_on_seed_table_and_board_only():
    assert board_result(1, 3, 5) == board_result(1, 3, 5)
    drawn = {board_result(1, table, board) for table in range(1, 4) for board in range(1, 28)}
    assert len(drawn) > 60  # varied: contracts, declarers, leads and tricks differ
    assert board_result(2, 3, 5) != board_result(1, 3, 5) or board_result(2, 3, 6) != board_result(1, 3, 6)
    for result in drawn:
        level, strain, doubling, declarer, _lead, tricks = result
        assert level == 0 or (1 <= level <= 7 and 0 <= strain <= 4 and doubling in (0, 1, 2)
                              and declarer in "NESW" and 0 <= tricks <= 13 and tricks >= level - 3)


def test_a_scripted_table_plays_the_whole_session_through_the_real_screens():
    sim = Simulator(rounds=3, boards_per_round=3)
    try:
        player = Player(sim.app, sim.keypad, 4, "", 7)
        for _ in range(400):
            if player.finished():
                break
            if player.act():
                sim.settle()
            else:
                sim.wait(50)
        assert player.finished()
        for number in range(1, 4):
            for board in range(3 * number - 2, 3 * number + 1):
                want = expected_summary(board_result(7, 4, board), board)
                assert sim.host.result(number, board) == want, (board, sim.host.result(number, board), want)
        assert sim.host.duplicates() == 0
    finally:
        sim.close()


def play(sim, player, offline_after_sign_in=False):
    """Let the scripted table play until it has finished (or 400 steps); True when it did."""
    for _ in range(400):
        if player.finished():
            return True
        if offline_after_sign_in and sim.app.plan is not None:
            sim.radio.up = sim.radio.down = False  # the laptop is shut once the table has its first round
        if player.act():
            sim.settle()
        else:
            sim.wait(50)
    return False


def check_leads(sim, rounds):
    """Every stored lead is a card its leader holds in the board's fixed deal; how many were checked."""
    checked = 0
    for number in range(1, rounds + 1):
        for board in range(3 * number - 2, 3 * number + 1):
            words = sim.host.result(number, board).split()
            if words[0] != "played":
                continue
            declarer, lead = words[3], words[5]  # "played v0 4S N 11 HK +450": lead as suit, rank
            leader = "NESW"[("NESW".find(declarer) + 1) % 4]
            suit = "SHDC".find(lead[0])
            assert lead[1] in hand(deal(board), leader).split(".")[suit], (board, declarer, lead)
            checked += 1
    return checked


def test_with_hand_records_the_scripted_leads_are_cards_the_leader_holds():
    sim = Simulator(rounds=2, boards_per_round=3, deals=True, settings={"lead": "force"})
    try:
        player = Player(sim.app, sim.keypad, 4, "", 7)
        assert play(sim, player)
        assert check_leads(sim, 2) >= 3
    finally:
        sim.close()


def test_with_the_laptop_shut_the_table_plays_on_and_its_leads_are_still_checked():
    sim = Simulator(rounds=3, boards_per_round=3, deals=True, settings={"lead": "force"})
    try:
        player = Player(sim.app, sim.keypad, 4, "", 7)
        assert not play(sim, player, offline_after_sign_in=True)  # it cannot finish: nothing is acknowledged
        assert sim.app.session_over and len(sim.app.pending) == 9, sim.app.pending
        assert sim.host.results() == {}
        assert sim.app.plan["round"] == 3 and None not in sim.app.plan["deals"], sim.app.plan
        sim.radio.up = sim.radio.down = True
        assert play(sim, player)
        assert check_leads(sim, 3) >= 5
    finally:
        sim.close()
