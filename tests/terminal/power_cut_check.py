"""Power cut at every flash write of a session (hard rule 1). MicroPython only: littlefs (vfs.VfsLfs2) on a RAM flash.

A three-round session is played once to count its block writes and erases (journal appends, acks,
compactions, littlefs's own metadata) and to note every record the app journals. Then it is played
again once per write, the power failing at that write (torn: half of it reaches the flash). After
each cut the flash is mounted again and the journal replayed:
  - every record read back is whole and is one the app wrote (nothing half-written is taken for one);
  - every result the screen reported saved is in the journal, or the host has acknowledged it;
  - a terminal booted on that flash resumes in the round of the journal with exactly the results
    the journal holds unacknowledged as pending, and they reach the host.
Run by tests/test_terminal_on_micropython.py (pytest collects no file of this name).
"""

import gc

import vfs
from ram_flash import RamBlockDevice, mount, unmount
from session_runner import Simulator
from tenace_terminal.journal import Journal

# Sign in to table 2; three rounds of two boards. In round 2 the host is first out of reach, then
# is not heard (its acknowledgements lost), so board 4 stays pending until the link catches up in round 3.
# Words with "!" are not keys: they set the radio (!offline, !online, !noack, !ack) or let 8 s pass (!wait).
_SCRIPT = ("2 OK OK 4 S N K H + 1 OK PASS OK OK !offline OK 3 NT E 4 S 7 OK !online !noack 2 H S 2 C - 1 OK "
           "OK !ack !wait OK 6 D N T C - 3 OK 1 C W A D = OK !wait OK")
SCRIPT = _SCRIPT.split()
COMPACT_BYTES = 700  # small, so that compactions (and cuts inside them) happen during the session


compactions = []  # (first, last) write of each journal rewrite in the uncut session


# Two flashes made once and reused: a 64 KB heap holds them, but not a new pair for every cut.
flash = RamBlockDevice()
after_cut = RamBlockDevice()


def play(cut_at, reference):
    """Play SCRIPT on a new flash, the power failing at write `cut_at` (0: never).

    Returns (device, the results the screen said were saved, those the host acknowledged, writes),
    results as round * 1000 + board.
    """
    device = flash
    device.load()
    vfs.VfsLfs2.mkfs(device)
    path = mount(device)
    device.arm(cut_at)
    sim = Simulator(storage=path, rounds=3, boards_per_round=2, compact_bytes=COMPACT_BYTES)
    journal = sim.app.journal
    append = journal.append

    def noting_append(record):
        append(record)
        if cut_at == 0 and "seq" in record and record["type"] != "ack":
            reference[record["seq"]] = record

    journal.append = noting_append
    rewrite = journal.rewrite

    def noting_rewrite(records):
        first = device.writes + 1
        rewrite(records)
        if cut_at == 0:
            compactions.append((first, device.writes))

    journal.rewrite = noting_rewrite
    saved = []
    for key in SCRIPT:
        if device.dead:
            break
        if key[0] == "!":
            if key == "!wait":
                sim.wait(8000)
            elif key.endswith("ack"):
                sim.radio.down = key == "!ack"
            else:
                sim.radio.up = sim.radio.down = key == "!online"
                sim.settle()
            continue
        screen = sim.press(key)
        for line in screen.split("\n"):
            if line.startswith("Board ") and line.endswith(" saved"):
                # The screen said so: this round's result for that board must never be lost.
                saved.append(sim.app.plan["round"] * 1000 + int(line[6:-6]))
    received = list(sim.host.results())  # round * 1000 + board of every result the host stored (and acknowledged)
    writes = device.writes
    sim.close()
    unmount(path)
    return device, saved, received, writes


def check_after_cut(device, saved, received, reference):
    """Mount what the flash holds after the cut, replay it, boot a terminal on it."""
    after_cut.load(device.data)
    path = mount(after_cut)
    try:
        records = [record for record in Journal(path).records()]
        pending = {}
        last_round = 0
        for record in records:
            kind = record["type"]
            if kind == "result" or kind == "players":
                assert record == reference[record["seq"]], ("not a record the app wrote", record)
                pending[record["seq"]] = record
            elif kind == "ack":
                pending.pop(record["seq"], None)
            elif kind == "round_plan":
                last_round = record["round"]
        kept = [record["round"] * 1000 + record["board"] for record in records if record["type"] == "result"]
        for result in saved:
            assert result in kept or result in received, ("result lost", result, kept, received)
        sim = Simulator(storage=path, rounds=3, boards_per_round=2, compact_bytes=COMPACT_BYTES, online=False)
        try:
            app = sim.app
            assert sorted(app.pending) == sorted(pending), (sorted(app.pending), sorted(pending))
            if last_round:  # (without a plan in the journal it asks the host, which sends round 1)
                assert app.plan["round"] == last_round, (app.plan["round"], last_round)
            sim.radio.up = sim.radio.down = True
            sim.wait(12000)  # they are sent again (the longest retransmission delay is 12 s) until acknowledged
            assert not sim.app.pending
            stored = sim.host.stored()
            for seq in pending:
                assert seq in stored, (seq, stored)
        finally:
            sim.close()
        return len(records)
    finally:
        unmount(path)


def test_power_cut_at_every_write_of_a_session():
    reference = {}
    device, saved, received, writes = play(0, reference)
    assert len(saved) == 6 and writes > 20, (saved, writes)
    device = None
    gc.collect()
    cuts = replayed = most_saved = 0
    for cut_at in range(1, writes + 1):
        device, saved, received, _ = play(cut_at, reference)
        assert device.dead, cut_at
        replayed += check_after_cut(device, saved, received, reference)
        most_saved = max(most_saved, len(saved))
        cuts += 1
        device = None
        gc.collect()
    in_compactions = 0
    for first, last in compactions:
        in_compactions += last - first + 1
    assert cuts == writes and most_saved == 6 and len(compactions) >= 2, (cuts, writes, most_saved, compactions)
    print("power cuts: %d writes cut (%d inside %d compactions), %d records replayed, up to %d results saved"
          % (cuts, in_compactions, len(compactions), replayed, most_saved))
