"""An error the terminal catches to stay alive still fails the run that caused it. Pytest and MicroPython."""

from session_runner import Simulator

from checks import raises


def broken_key(key):
    raise KeyError("no such board: " + key)


def test_an_error_caught_by_the_app_fails_the_simulated_run():
    sim = Simulator()
    try:
        sim.sign_in(1)
        sim.app.screen.key = broken_key
        message = raises(AssertionError, sim.press, "OK")
        assert "caught 1 error(s)" in message and "KeyError" in message and "no such board: OK" in message, message
    finally:
        sim.close()


def test_an_interactive_run_lives_on_and_shows_the_error():
    sim = Simulator(strict=False)
    try:
        sim.sign_in(1)
        sim.app.screen.key = broken_key
        screen = " ".join(sim.press("OK").split())
        assert "KeyError" in screen and sim.app.faults == 1, screen
        sim.app.go("round")  # a player's next key works again
        assert "Round 1" in " ".join(sim.press("BACK").split())
    finally:
        sim.close()
