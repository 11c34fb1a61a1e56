"""The real terminal app over WireLink and the wire protocol to the real collector. Pytest and MicroPython.

Pairing (right and wrong code), sign-in, rounds played, a reboot mid-round, a channel losing 30% of
frames both ways, a result refused once the director has closed the session, a collector that has lost
the terminal's seat, hand records for the lead check: every result is stored exactly once, by
(terminal, wire sequence number).
"""

from deals import ANALYSES, deal
from session_runner import TERMINAL, Simulator
from tenace_terminal.link_files import STATE_FILE


def screen(sim):
    return " ".join(sim.screen().split())


def until(sim, done, limit_ms=60000):
    """Let time pass, a tenth of a second at a time, until done() (AssertionError after limit_ms)."""
    end = sim.clock.now + limit_ms
    while not done():
        assert sim.clock.now < end, "not within %d ms: %s" % (limit_ms, screen(sim))
        sim.wait(100)


BOARD_KEYS = ("4 S N K H + 1 OK", "PASS OK", "3 NT E 4 S = OK")


def keys(sim, script):
    sim.type(script)
    return screen(sim)


def pair(sim, code=None):
    keys(sim, "3 OK")
    assert "Code _" in screen(sim), screen(sim)
    return keys(sim, " ".join(code or sim.host.code) + " OK")


def test_pairing_with_the_right_code_signs_in_and_keeps_the_key():
    sim = Simulator(paired=False)
    try:
        assert sim.link.needs_code
        shown = keys(sim, "3 OK")
        assert "Section A table 3" in shown and "Code _" in shown, shown
        assert "Code 1_" in keys(sim, "1 2 BACK")
        assert "Table 3_" in keys(sim, "BACK BACK")  # BACK with no digit: back to the table number
        assert "Pairing code: 6 digits" in keys(sim, "OK 1 2 3 OK")
        keys(sim, "BACK BACK BACK " + " ".join(sim.host.code) + " OK")
        until(sim, lambda: "Round 1" in screen(sim), 5000)
        shown = screen(sim)
        assert "Round 1 A3" in shown and "NS 3" in shown and "EW 3" in shown, shown
        assert not sim.link.needs_code and sim.host.sign_ins() == 1
        with open(sim.storage + "/" + STATE_FILE) as f:
            words = f.read().split()
        assert bytes.fromhex(words[0]) == sim.host.key and words[2:] == ["0", "3"], words
        # A reboot keeps the key: no code to key again, and the link signs in by itself.
        sim.reboot()
        assert not sim.link.needs_code and sim.link.session.signed_in and sim.host.sign_ins() == 2
    finally:
        sim.close()


def test_a_wrong_code_is_forgotten_and_the_players_are_told():
    sim = Simulator(paired=False)
    try:
        wrong = "271828" if sim.host.code != "271828" else "314159"
        assert "Signing in" in pair(sim, wrong)
        sim.wait(11000)
        shown = screen(sim)
        assert "Wrong pairing code? Key it again" in shown and "Code _" in shown, shown
        assert sim.link.needs_code and sim.host.sign_ins() == 0 and sim.app.signin is None
        keys(sim, " ".join(sim.host.code) + " OK")
        until(sim, lambda: "Round 1" in screen(sim), 5000)
        assert sim.host.sign_ins() == 1
    finally:
        sim.close()


def test_a_terminal_with_the_club_key_pairs_with_it_and_its_results_are_stored():
    club = bytes(range(100, 116))  # written by tenace flash; the host's laptop has it too
    sim = Simulator(rounds=1, paired=False, club=club)
    try:
        pair(sim)
        until(sim, lambda: "Round 1" in screen(sim), 5000)
        assert sim.host.sign_ins() == 1
        with open(sim.storage + "/" + STATE_FILE) as f:
            key = bytes.fromhex(f.read().split()[0])
        assert len(key) == 16 and key != sim.host.key  # not the key of the code alone
        play_round(sim, 1)
        assert sorted(sim.host.stored()) == [1, 2, 3] and sim.app.pending == {}
    finally:
        sim.close()


def play_round(sim, number, boards=3):
    """From the round screen (or the previous round's end): OK, then every board, to the round's end."""
    if "finished" in screen(sim):
        keys(sim, "OK")
    assert "Round %d A3" % number in screen(sim), screen(sim)
    keys(sim, "OK")
    for i in range(boards):
        shown = keys(sim, BOARD_KEYS[i % 3])
        assert "saved" in shown or "finished" in shown, shown
    assert "Round %d finished" % number in screen(sim), screen(sim)


def test_rounds_played_every_result_acknowledged_and_the_last_round_shown_as_last():
    sim = Simulator(rounds=2)
    try:
        sim.sign_in(3)
        play_round(sim, 1)
        shown = screen(sim)
        assert "NS 3 stays here" in shown and "EW 3 > table 4 EW" in shown and "OK: next round" in shown, shown
        play_round(sim, 2)
        shown = screen(sim)
        # Round 2's plan has no table to go to (all zero): the last round, with no moves shown.
        assert "OK: end of session" in shown and "sits out" not in shown and ">" not in shown, shown
        assert sim.app.pending == {}
        assert sorted(sim.host.results()) == [1001, 1002, 1003, 2004, 2005, 2006]
        assert sorted(sim.host.stored()) == [1, 2, 3, 4, 5, 6] and sim.host.duplicates() == 0
        assert "Session finished" in keys(sim, "OK")
    finally:
        sim.close()


def test_a_reboot_mid_round_stores_each_result_once():
    sim = Simulator(rounds=1)
    try:
        sim.sign_in(3)
        sim.press("OK")
        sim.radio.down = False  # the host gets board 1 but its ACK never comes back
        keys(sim, BOARD_KEYS[0])
        sim.wait(4000)  # the link sends it again; still no ACK
        assert len(sim.app.pending) == 1 and len(sim.host.stored()) == 1
        sim.reboot()  # power cut: a new App and WireLink on the same journal and state file
        sim.radio.down = True
        until(sim, lambda: sim.app.pending == {}, 20000)
        assert sim.host.duplicates() >= 1
        assert "1 of 3 entered" in screen(sim), screen(sim)  # back in the round, board 1 in
        assert "Board 2 saved" in keys(sim, "OK " + BOARD_KEYS[1])
        keys(sim, BOARD_KEYS[2])
        until(sim, lambda: sim.app.pending == {})
        assert sorted(sim.host.results()) == [1001, 1002, 1003] and len(sim.host.stored()) == 3
        assert sim.host.sign_ins() == 2  # the link signed in again by itself after the reboot
    finally:
        sim.close()


def test_a_terminal_taking_over_a_table_starts_at_the_first_board_the_host_has_no_result_for():
    """A spare signs in to table 3, whose board 1 the host already has (from the broken terminal, or entered by the
    director): its plan says so, the round starts at board 2 and ends after boards 2 and 3; board 1 is not keyed
    again (a conflict the director would have to settle)."""
    sim = Simulator(rounds=1)
    try:
        assert sim.host.enter(3, 1, 1, "3NT", "S", 9) == "stored"
        sim.sign_in(3)
        assert sim.app.plan["done"] == [1], sim.app.plan
        assert "Bd 2 " in keys(sim, "OK"), screen(sim)
        keys(sim, BOARD_KEYS[1])
        assert "Round 1 finished" in keys(sim, BOARD_KEYS[2]), screen(sim)
        until(sim, lambda: sim.app.pending == {})
        assert sorted(sim.host.results()) == [1001, 1002, 1003] and len(sim.host.stored()) == 2
        assert "3NT" in str(sim.host.result(1, 1))  # the first result stands
    finally:
        sim.close()


def test_a_channel_losing_30_percent_both_ways_delivers_everything_once():
    sim = Simulator(rounds=2, loss=0.0)
    try:
        sim.sign_in(3)
        sim.radio.loss = 0.3
        for number in (1, 2):
            until(sim, lambda n=number: "Round %d " % n in screen(sim))
            keys(sim, "OK")
            for i in range(3):
                keys(sim, BOARD_KEYS[i])
                sim.wait(500)
            until(sim, lambda n=number: "Round %d finished" % n in screen(sim))
            until(sim, lambda: sim.app.pending == {})
            if number == 1:
                keys(sim, "OK")
        # Frames lost and sent again arrive out of order; each result is there once, under its own number.
        assert sorted(sim.host.results()) == [1001, 1002, 1003, 2004, 2005, 2006]
        assert sorted(sim.host.stored()) == [1, 2, 3, 4, 5, 6]
        assert "OK: end of session" in screen(sim), screen(sim)
    finally:
        sim.close()


def test_a_result_refused_once_the_session_is_closed_is_shown_and_not_sent_again():
    sim = Simulator(rounds=1)
    try:
        sim.sign_in(3)
        keys(sim, "OK " + BOARD_KEYS[0])
        sim.host.close_event()  # the director ends the session early
        keys(sim, BOARD_KEYS[1])
        shown = screen(sim)
        assert "Board 2 refused by the host" in shown, shown
        assert sim.app.pending == {} and sorted(sim.host.results()) == [1001]
        sent = len(sim.radio.to_host)
        sim.wait(20000)
        assert sim.app.pending == {} and len(sim.radio.to_host) == sent == 0  # nothing more on the air
    finally:
        sim.close()


def test_results_refused_as_not_signed_in_go_again_after_the_link_signs_in_again():
    sim = Simulator(rounds=1)
    try:
        sim.sign_in(3)
        sim.press("OK")
        sim.host.forget(TERMINAL)  # the collector has lost where the terminal sits
        keys(sim, BOARD_KEYS[0])
        until(sim, lambda: sim.app.pending == {}, 30000)
        assert sim.host.sign_ins() == 2 and sorted(sim.host.results()) == [1001]
    finally:
        sim.close()


def test_hand_records_come_with_the_plan_when_the_lead_is_checked():
    sim = Simulator(rounds=1, boards_per_round=2, settings={"lead": "warn"}, deals=True)
    try:
        sim.sign_in(3)
        assert sim.app.settings["lead"] == "warn"
        assert sim.app.plan["deals"] == [deal(1), deal(2)]
        # With their double-dummy tricks and par, as the event file keeps them.
        assert sim.app.plan["dd"] == ["%s %d" % ANALYSES[0], "%s %d" % ANALYSES[1]]
    finally:
        sim.close()
    sim = Simulator(rounds=1, boards_per_round=2, settings={"lead": "warn"}, deals=True, analysed=False)
    try:
        sim.sign_in(3)
        assert sim.app.plan["deals"] == [deal(1), deal(2)] and "dd" not in sim.app.plan
    finally:
        sim.close()


def test_a_board_the_director_erased_and_the_table_keys_again_counts_and_is_on_its_traveller():
    """Issue 37: the director erases table 3's board 1 (tenace erase) and a terminal signing in there keys it again,
    a first entry: it is the board's result (not a conflict with the erased one), and its line is on the traveller."""
    sim = Simulator(rounds=1, settings={"traveller": True})
    try:
        assert sim.host.enter(3, 1, 1, "3NT", "S", 9) == "stored"  # the table's result, from wherever it came
        assert sim.host.enter(4, 1, 1, "4S", "N", 9) == "stored"  # another table's
        assert sim.host.erase(3, 1, 1) == "stored"
        sim.sign_in(3)
        assert "Bd 1 " in keys(sim, "OK"), screen(sim)  # erased: missing again, so the round starts there
        shown = keys(sim, BOARD_KEYS[0])
        assert "Board 1 traveller" in shown, shown
        assert " 3-3 4\u2660 N +1 450" in shown and " 4-4 4\u2660 N -1 -50" in shown, shown
        until(sim, lambda: sim.app.pending == {})
        assert "director decides" not in screen(sim), screen(sim)
        assert sim.host.result(1, 1) == "played v0 4S N 11 HK +450" and sim.host.conflicts() == 0
        assert sorted(sim.host.results()) == [1001]
    finally:
        sim.close()


def test_a_result_stored_as_a_conflict_is_told_at_the_table():
    """The director enters table 3's board 1 while the players key it differently: both are kept, neither counts,
    and the terminal says the director will decide (not only "saved")."""
    sim = Simulator(rounds=1)
    try:
        sim.sign_in(3)
        keys(sim, "OK")
        assert sim.host.enter(3, 1, 1, "3NT", "S", 9) == "stored"
        keys(sim, BOARD_KEYS[0])
        until(sim, lambda: sim.app.pending == {})
        shown = screen(sim)
        assert "Board 1: 2 results, the director decides" in shown, shown
        assert sim.host.conflicts() == 1 and sim.host.results() == {}
    finally:
        sim.close()
