"""Journal compaction: rewrite the journal as just the records the terminal's state needs.

Loaded only when the journal has grown past App.compact_bytes, then dropped again. Safe at any
instant: Journal.rewrite replaces the file in one step, and nothing unacknowledged is left out.
"""

from micropython import const

from tenace_terminal import catalogue

_MSG_ACK = const("ack")
_MSG_SESSION_OVER = const("session_over")
_MSG_LANG = const("lang")
_MSG_TALLY = const("tally")


def compact(app) -> None:
    """Rewrite app's journal: sign-in, language, a tally, the round plan, this round's results, all pending."""
    records = []
    if app.signin is not None:
        records.append(app.signin)
    if app.signin is not None or catalogue.language() != "en":  # after the sign-in: it may name another
        records.append({"type": _MSG_LANG, "code": catalogue.language()})
    records.append({"type": _MSG_TALLY, "boards": app.boards_entered, "seq": app.next_seq})
    if app.plan is not None:
        records.append(app.plan)
    if app.session_over:
        records.append({"type": _MSG_SESSION_OVER})
    kept = {}
    for seq in app.pending:
        kept[seq] = app.pending[seq]
    for record in app.results.values():
        kept[record["seq"]] = record
    for seq in sorted(kept):
        records.append(kept[seq])
        if seq not in app.pending:
            records.append({"type": _MSG_ACK, "seq": seq})
    try:
        app.journal.rewrite(records)
    except OSError:
        pass  # the old journal is still whole: compaction is only ever an optimisation
