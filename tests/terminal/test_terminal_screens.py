"""Screen by screen: every refusal says why, and the host's settings change what is asked.

Pytest and MicroPython (the same file; see tests/test_terminal_on_micropython.py).
"""


from table_steps import said, started


def test_contract_refusals_say_why():
    sim = started()
    try:
        assert "Level first: 1 to 7" in said(sim, "H")
        assert "Level is 1 to 7" in said(sim, "8")
        assert "Level first" in said(sim, "N")
        assert "Contract, or PASS" in said(sim, "OK")
        assert "Suit or NT first" in said(sim, "4 X")
        assert "PASS: first BACK to clear" in said(sim, "PASS")
        screen = said(sim, "3 NT")  # a second level replaces the first
        assert "Contract 3NT" in screen, screen
        assert "Suit chosen; BACK to change" in said(sim, "H")
        assert "Declarer: N, E, S or W" in said(sim, "OK")
        assert "Contract 3NTXX" in said(sim, "X X")
        assert "Contract 3NTX" in said(sim, "BACK")  # BACK takes back one X
        assert "Contract 3_" in said(sim, "BACK BACK")
        assert "Round 1: boards" in said(sim, "BACK BACK")  # on an empty contract: the board screen
    finally:
        sim.close()


def test_result_refusals_and_the_entry_forms():
    sim = started()
    try:
        sim.type("4 S N K H")
        assert "4\u2660: at most +3" in said(sim, "+ 4")
        assert "A digit after +" in said(sim, "OK")  # the + stays, for the digit
        assert "13 tricks at most" in said(sim, "BACK 1 4")
        screen = said(sim, "OK")  # "1" waits for a second digit; OK makes it 1 trick
        assert "-9 1 trick Lead" in screen and "NS -450" in screen, screen  # one trick, not "1 tricks"
        assert "Result _" in said(sim, "BACK")
        assert "+3 13 tricks" in said(sim, "1 3")
        screen = said(sim, "BACK 0")
        assert "-10 0 tricks" in screen, screen
        sim.type("BACK BACK")  # from the result, back to the lead without its last element (the suit)
        assert "Lead K_" in said(sim, "")
    finally:
        sim.close()
    sim = started()
    try:
        assert "1\u2663: at most -7" in said(sim, "1 C S 2 H - 8")
    finally:
        sim.close()


def test_relative_only_and_tricks_only_settings():
    sim = started({"result": "relative", "lead": "off"})
    try:
        sim.type("4 S N")
        assert "Use =, + or -" in said(sim, "9")
        assert "Result -1_" in said(sim, "- 1")  # on a 4-level contract -1 may become -10
        assert "-10 0 tricks" in said(sim, "0")
    finally:
        sim.close()
    sim = started({"result": "tricks", "lead": "off"})
    try:
        sim.type("2 H E")
        assert "Enter tricks taken" in said(sim, "=")
        assert "=  8 tricks".replace("  ", " ") in said(sim, "8")
    finally:
        sim.close()


def test_lead_in_either_order_and_the_ten():
    sim = started()
    try:
        sim.type("3 NT S")
        assert "Lead by W" in said(sim, "")
        assert "Ten: T or 0" in said(sim, "1")
        assert "Lead \u2660T Result _" in said(sim, "S 0")  # 0 is the ten; complete, so on to the result
    finally:
        sim.close()


def test_lead_checked_against_the_hand_record():
    from deals import deal, hand

    east = hand(deal(1), "E").split(".")  # 4S by N: East leads; PBN order S H D C
    held = "S" + east[0][0] if east[0] else "H" + east[1][0]
    north = hand(deal(1), "N").split(".")
    missing = "S" + north[0][0] if north[0] else "H" + north[1][0]  # a card North holds, so East does not
    sim = started({"lead": "warn"}, deals=True)
    try:
        sim.type("4 S N")
        screen = said(sim, missing[1] + " " + missing[0])
        assert "not in East's hand" not in screen and "not in E's hand" in screen, screen
        assert "OK keeps, BACK fixes" in screen, screen
        assert "Result _" in said(sim, "OK")  # warned, and kept
        sim.type("BACK BACK")
        screen = said(sim, held[1] + " " + held[0])
        assert "Result _" in screen, screen
    finally:
        sim.close()
    sim = started({"lead": "force"}, deals=True)
    try:
        sim.type("4 S N")
        screen = said(sim, missing[1] + " " + missing[0])
        assert "correct it" in screen and "Lead " in screen, screen
        assert "correct it" in said(sim, "OK")  # no way on but correcting it
        screen = said(sim, held[0] + " " + held[1])
        assert "Result _" in screen, screen
    finally:
        sim.close()


def test_board_choice_and_the_menu_keep_the_entry():
    sim = started()
    try:
        screen = said(sim, "UP")
        assert "Round 1: boards" in screen, screen
        screen = said(sim, "DOWN OK")
        assert "Bd 2 Dlr E" in screen, screen
        sim.type("2 H")
        screen = said(sim, "MENU")
        assert "1 Language 2 Director" in screen, screen
        assert "Contract 2\u2665" in said(sim, "BACK")  # back to the entry as it was
        assert "Choose a number or BACK" in said(sim, "MENU 9")
        assert "Wrong PIN" in said(sim, "2 1 OK")
        assert "Board 7 is not in this round" in said(sim, " ".join(sim.host.pin) + " OK 7 OK")
        screen = said(sim, "3 OK")
        assert "2 Not played" in screen and "Erase" not in screen, screen  # erase only where there is a result
        assert "Board 3 has no result" in said(sim, "1")
        screen = said(sim, "2")
        assert "Mark not played? OK yes, BACK no" in screen, screen  # confirmed first
        assert "Mark not played?" in said(sim, "5")  # any other key: still asked
        assert "2 Not played" in said(sim, "BACK")
        screen = said(sim, "2 OK")
        assert "Board 3 not played" in screen and "Bd 1" in screen, screen
    finally:
        sim.close()


def test_every_entry_screen_names_its_board_first_and_the_contract_screen_says_how_to_choose_another():
    sim = started()
    try:
        screen = sim.screen()
        assert screen.startswith("Bd 1 ") and "UP/DOWN: other board" in screen, screen
        assert "Round 1: boards" in said(sim, "DOWN")
        screen = said(sim, "2 OK")
        assert screen.startswith("Bd 2 ") and "UP/DOWN: other board" in screen, screen
        assert "other board" not in said(sim, "4"), sim.screen()  # a level keyed: UP/DOWN are refused now
        for keys in ("S N", "K H", "="):  # the lead, the result, the summary
            sim.type(keys)
            assert sim.screen().startswith("Bd 2 "), sim.screen()
        assert "Board 2 saved" in said(sim, "OK") and sim.screen().startswith("Bd 1 ")
    finally:
        sim.close()


def test_the_summary_changes_the_declarer_with_one_key_and_both_sides_accept_alike():
    sim = started()
    try:
        screen = said(sim, "4 S N K H + 1")
        assert "4\u2660 by N" in screen and "NS +450" in screen and "EW: OK to accept" in screen, screen
        screen = said(sim, "E")  # East declared: one key, not four BACKs and five
        assert "4\u2660 by E" in screen and "+1 11 tricks" in screen and "NS -450" in screen, screen
        assert "Lead \u2665K" in screen and "NS: OK to accept" in screen, screen
        assert "OK accepts, BACK corrects, NESW declarer" in said(sim, "H")
        screen = said(sim, "S")  # S is South here: there is no suit to key on the summary
        assert "4\u2660 by S" in screen and "NS +450" in screen, screen
        assert "Board 1 saved" in said(sim, "OK")
        assert sim.host.result(1, 1) == "played v0 4S S 11 HK +450", sim.host.result(1, 1)
        screen = said(sim, "PASS")  # a passed-out board: either side accepts, said as for a played one
        assert "NS/EW: OK to accept" in screen, screen
        assert "OK accepts, BACK corrects" in said(sim, "N") and "declarer" not in sim.screen()
    finally:
        sim.close()


def test_the_directors_prompts_say_what_they_take():
    sim = started()
    try:
        pin = sim.app.settings["pin"]
        assert "PIN digits, then OK" in said(sim, "MENU 2 H")
        screen = said(sim, " ".join(str(pin)) + " OK H")
        assert "Board _" in screen and "Board number, then OK" in screen, screen
        assert "Choose 1, 2, 3 or BACK" in said(sim, "1 OK H")  # the three choices are on the screen now
    finally:
        sim.close()
