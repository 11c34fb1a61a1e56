"""The public results pages of `tenace serve`: live rankings, travellers and scorecards, read-only, for phones."""
