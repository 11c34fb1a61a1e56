"""Steps the terminal tests share: a terminal signed in and at its first contract, and what a screen says."""

from session_runner import Simulator


def started(settings=None, deals=False):
    """A terminal signed in to table 1, on the contract screen of board 1."""
    sim = Simulator(settings=settings, deals=deals)
    sim.sign_in(1)
    sim.press("OK")
    return sim


def said(sim, keys):
    """The screen after `keys` (or as it is), its words joined by single spaces."""
    screens = sim.type(keys)
    return " ".join((screens[-1] if screens else sim.screen()).split())
