"""The store's exceptions: a file that cannot be used, and a director's entry that is not valid."""

from __future__ import annotations


class StoreError(Exception):
    """The event file is missing, is not a Tenace event, or was written by a newer Tenace."""


class EntryError(ValueError):
    """A result entered at the laptop (a correction, an adjusted score) that cannot be recorded as given."""
