"""The low-battery warning: on the bottom line (above a status) at 15 % and below, off again above 20 %, and play
goes on under it.

Pytest and MicroPython (the same file; see tests/test_terminal_on_micropython.py).
"""

from table_steps import said, started

WARNING = "charge!"


def bottom(sim):
    return sim.screen().split("\n")[-1]


def test_the_warning_comes_at_15_percent_and_play_goes_on():
    sim = started()
    try:
        sim.battery.level = 16
        sim.wait(11000)  # the battery is read every 10 s
        assert WARNING not in sim.screen(), sim.screen()
        sim.battery.level = 15
        sim.wait(11000)
        assert bottom(sim) == "Battery 15%: charge!", sim.screen()
        assert "Contract _" in said(sim, "")  # the screen it was on, still there
        screen = said(sim, "4 S")
        assert "Contract 4\u2660" in screen and "Battery 15%: charge!" in screen, screen
        said(sim, "H")  # a refusal takes the bottom line(s), the warning the one above
        lines = sim.screen().split("\n")
        assert lines[-3:] == ["Battery 15%: charge!", "Suit chosen; BACK to", "change"], lines
        screen = said(sim, "N K H + 1")
        assert "NS +450" in screen and "Battery 15%: charge!" in screen, screen
        said(sim, "OK")
        assert sim.screen().split("\n")[-2:] == ["Battery 15%: charge!", "Board 1 saved"], sim.screen()
        sim.battery.level = 12
        sim.wait(11000)
        assert sim.screen().split("\n")[-2:] == ["Battery 12%: charge!", "Board 1 saved"], sim.screen()
        said(sim, "3")  # the next key clears the status; the warning goes back to the bottom line
        assert bottom(sim) == "Battery 12%: charge!", sim.screen()
    finally:
        sim.close()


def test_the_warning_stays_until_above_20_percent():
    sim = started()
    try:
        sim.battery.level = 9
        sim.wait(11000)
        assert bottom(sim) == "Battery 9%: charge!", sim.screen()
        sim.battery.level = 19  # on the charger, or a reading up under a lighter load: not yet
        sim.wait(11000)
        assert bottom(sim) == "Battery 19%: charge!", sim.screen()
        sim.battery.level = 20
        sim.wait(11000)
        assert WARNING not in sim.screen(), sim.screen()
        sim.battery.level = 17  # between the two: no warning coming back
        sim.wait(11000)
        assert WARNING not in sim.screen(), sim.screen()
    finally:
        sim.close()


def test_the_battery_is_read_every_ten_seconds():
    sim = started()
    try:
        sim.battery.level = 5
        sim.wait(5000)  # the last reading was at sign-in, under 10 s ago
        assert WARNING not in sim.screen(), sim.screen()
        sim.wait(6000)
        assert bottom(sim) == "Battery 5%: charge!", sim.screen()
    finally:
        sim.close()
