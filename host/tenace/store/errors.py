"""The store's exceptions: a file that cannot be used, and a director's entry that is not valid."""

from __future__ import annotations


class StoreError(Exception):
    """The event file is missing, is not a Tenace event, or was written by a newer Tenace."""


class EntryError(ValueError):
    """A result entered at the laptop (a correction, an adjusted score) that cannot be recorded as given; `reason`:
    the field check's code when one refused it (bad_contract, bad_declarer, bad_tricks, bad_lead...), for a page to
    say it in its own language."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason
