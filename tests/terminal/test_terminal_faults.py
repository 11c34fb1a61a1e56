"""An error the terminal catches to stay alive still fails the run that caused it. Pytest and MicroPython."""

import gc
import sys

from session_runner import Simulator
from tenace_terminal import catalogue

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


class CannotLoadOnce:
    """A screen module whose code cannot be loaded the first time it is asked for (no memory), then can."""

    def __init__(self, module):
        self.module = module
        self.refused = False

    @property
    def Screen(self):
        if not self.refused:
            self.refused = True
            raise MemoryError("memory allocation failed, allocating 172 bytes")
        return self.module.Screen


def test_a_screen_that_cannot_be_loaded_is_tried_again_and_the_old_one_is_not_brought_back():
    sim = Simulator(strict=False)
    name = "tenace_terminal.screens.contract"
    try:
        sim.sign_in(1)
        assert sim.app.screen_name == "round"
        sys.modules[name] = CannotLoadOnce(__import__(name, None, None, ("Screen",)))
        screen = " ".join(sim.press("OK").split())
        # The next step loaded it: the contract of board 1, not the round's screen again (the app has moved on).
        assert sim.app.faults == 1 and "MemoryError" in screen and sim.app.screen_name == "contract", screen
        screen = sim.press("4")
        assert sim.app.entry.board == 1 and sim.app.entry.level == 4 and sim.app.faults == 1, screen
    finally:
        sys.modules.pop(name, None)
        sim.close()


def test_without_room_for_the_message_index_texts_are_read_line_by_line():
    build, index = catalogue._build_index, catalogue._index

    def no_memory(code):
        raise MemoryError("memory allocation failed, allocating 512 bytes")

    try:
        catalogue._build_index = no_memory
        catalogue._index = None
        assert catalogue.text("title") == "Tenace"
        assert catalogue.text("signed_in", "A", 3) == "Section A table 3"
        assert catalogue._index is None  # the next text tries again
    finally:
        catalogue._build_index, catalogue._index = build, index


def test_an_error_report_without_memory_still_counts_and_never_raises():
    sim = Simulator(strict=False)
    text = catalogue.text

    def no_memory(key, *args):
        raise MemoryError("memory allocation failed, allocating 64 bytes")

    try:
        sim.sign_in(1)
        catalogue.text = no_memory
        sim.app._report(KeyError("no such board"))
        assert sim.app.faults == 1 and sim.app.last_fault == "KeyError"
    finally:
        catalogue.text = text
        sim.close()


def test_the_app_has_the_collector_run_every_4_kb_on_micropython():
    sim = Simulator()
    try:
        threshold = getattr(gc, "threshold", None)
        if threshold is not None:  # MicroPython; CPython's collector counts objects, not bytes
            assert threshold() == 4096
    finally:
        sim.close()
