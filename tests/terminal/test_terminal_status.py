"""The terminal's status report for the director's inventory (`tenace terminals`): sent after the sign-in, again
after a reboot's sign-in, and every 5 minutes; with the factory test's result once the terminal has one.

Pytest and MicroPython (the same file; see tests/test_terminal_on_micropython.py).
"""

from session_runner import Simulator
from table_steps import started


def test_the_status_reaches_the_event_file():
    sim = Simulator()
    try:
        assert sim.host.status() is None  # nothing before the sign-in
        sim.sign_in(1)
        assert sim.host.status() == "1 0.1.0 87% 0 not_run -"  # the simulator's battery gives no voltage
    finally:
        sim.close()


def test_a_reboot_and_the_five_minutes_send_it_again():
    sim = started()
    try:
        with open(sim.storage + "/factory.txt", "w") as f:
            f.write("2 13 -1 3950\n")  # a failed factory test: keys 8, display 4 and battery 1 passed, not the radio
        sim.reboot()  # the link signs in again by itself: a new report, with the factory test now on flash
        assert sim.host.status() == "1 0.1.0 87% 0 failed keys+display+battery", sim.host.status()
        sim.battery.level = 60
        sim.wait(200000)
        assert "87%" in sim.host.status()  # not yet
        sim.wait(110000)
        assert "60%" in sim.host.status(), sim.host.status()
    finally:
        sim.close()
