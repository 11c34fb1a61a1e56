"""Journal compaction: rewrite the journal as just the records the terminal's state needs.

Loaded only when the journal has grown past App.compact_bytes, then dropped again. Safe at any
instant: Journal.rewrite replaces the file in one step, and nothing unacknowledged is left out.
"""

from tenace_terminal import catalogue


def compact(app) -> None:
    """Rewrite app's journal: sign-in, language, a tally, the round plan, this round's results, all pending."""
    records = []
    if app.signin is not None:
        records.append(app.signin)
    if app.signin is not None or catalogue.language() != "en":  # after the sign-in: it may name another
        records.append({"type": "lang", "code": catalogue.language()})
    records.append({"type": "tally", "boards": app.boards_entered, "seq": app.next_seq})
    if app.plan is not None:
        records.append(app.plan)
    if app.session_over:
        records.append({"type": "session_over"})
    kept = {}
    for seq in app.pending:
        kept[seq] = app.pending[seq]
    for record in app.results.values():
        kept[record["seq"]] = record
    for seq in sorted(kept):
        records.append(kept[seq])
        if seq not in app.pending:
            records.append({"type": "ack", "seq": seq})
    try:
        app.journal.rewrite(records)
    except OSError:
        pass  # the old journal is still whole: compaction is only ever an optimisation
