"""What a simulated table accepted, for the simulator to compare with the store (tenace.simulation.session.outcome).

One line per board, "round board result" (a contract, declarer, tricks and score, or "Pass 0"), appended and
flushed as the app records it: a process killed mid-session leaves every line it wrote.
"""


def read_logged(path):
    """The (round, board) of every line already in the log at `path` (a restarted process's), or none."""
    logged = set()
    try:
        with open(path) as f:
            for line in f:
                words = line.split()
                logged.add((int(words[0]), int(words[1])))
    except OSError:
        pass
    return logged


def accepted_lines(app, logged):
    """Each result of the app's round not yet in `logged` (a set of (round, board), updated), as its log line."""
    plan = app.plan
    if plan is None:
        return
    for board, record in app.results.items():
        key = (plan["round"], board)
        if key in logged or record.get("kind") not in ("played", "passed_out"):
            continue
        logged.add(key)
        if record["kind"] == "played":
            line = "%s %s %d %+d" % (record["contract"], record["declarer"], record["tricks"], record["score"])
        else:
            line = "Pass 0"
        yield "%d %d %s\n" % (key[0], board, line)


def log_accepted(app, logged, path):
    """Append to `path` each result of the app's round not yet in `logged` (a set of (round, board), updated)."""
    for line in accepted_lines(app, logged):
        with open(path, "a") as f:
            f.write(line)
