"""The terminal's journal: records, torn tails, corruption, rewrites, the app's use of it. Pytest and MicroPython."""

import io

from session_runner import Simulator
from sim_devices import new_directory, remove_directory
from tenace_terminal.journal import FILE_NAME, Journal, write_record
from tenace_terminal.wire_link import APP_SEQ


def encode(record):
    """One record as the journal writes it on flash."""
    out = io.BytesIO()
    write_record(out, record)
    return out.getvalue()


def read_all(directory):
    return [record for record in Journal(directory).records()]


def raw(directory):
    with open(directory + "/" + FILE_NAME, "rb") as f:
        return f.read()


def write_raw(directory, data):
    with open(directory + "/" + FILE_NAME, "wb") as f:
        f.write(data)


def test_records_come_back_whole_and_in_order():
    directory = new_directory()
    try:
        assert read_all(directory) == []  # no journal yet: a new terminal
        journal = Journal(directory)
        records = [{"type": "result", "seq": n, "contract": "4S", "lead": "\u2665K"} for n in range(1, 6)]
        for record in records:
            journal.append(record)
        assert read_all(directory) == records
        assert Journal(directory).size == 0 and journal.size == len(raw(directory))
    finally:
        remove_directory(directory)


def test_a_torn_tail_is_never_taken_for_a_record_and_is_dropped_before_the_next_append():
    directory = new_directory()
    try:
        journal = Journal(directory)
        journal.append({"type": "result", "seq": 1})
        journal.append({"type": "result", "seq": 2})
        whole = raw(directory)
        third = encode({"type": "result", "seq": 3})
        # Every prefix of a third record: the first two stay, the partial third is ignored.
        for cut in range(len(third)):
            write_raw(directory, whole + third[:cut])
            assert read_all(directory) == [{"type": "result", "seq": 1}, {"type": "result", "seq": 2}], cut
        # The next append first removes the torn bytes, so the new record is readable.
        journal = Journal(directory)
        assert len(read_all(directory)) == 2
        journal.append({"type": "ack", "seq": 1})
        assert read_all(directory)[-1] == {"type": "ack", "seq": 1}
        assert len(read_all(directory)) == 3
    finally:
        remove_directory(directory)


def test_a_repair_keeps_every_byte_of_a_journal_many_times_its_copy_buffer():
    directory = new_directory()
    try:
        journal = Journal(directory)
        records = [{"type": "result", "seq": n, "board": n, "contract": "3NT", "declarer": "S"} for n in range(1, 41)]
        for record in records:
            journal.append(record)
        whole = raw(directory)
        assert len(whole) > 10 * 128
        write_raw(directory, whole + encode({"type": "result", "seq": 41})[:9])  # torn by a power cut
        journal = Journal(directory)
        journal.append({"type": "ack", "seq": 1})
        assert raw(directory) == whole + encode({"type": "ack", "seq": 1})
        records.append({"type": "ack", "seq": 1})
        assert read_all(directory) == records
        assert journal.size == len(raw(directory))
    finally:
        remove_directory(directory)


def test_a_corrupt_record_stops_the_replay_there():
    directory = new_directory()
    try:
        journal = Journal(directory)
        for n in range(3):
            journal.append({"type": "result", "seq": n})
        data = bytearray(raw(directory))
        second = len(encode({"type": "result", "seq": 0}))
        data[second + 8] ^= 0x01  # one bit flipped inside the second record's payload
        write_raw(directory, bytes(data))
        assert read_all(directory) == [{"type": "result", "seq": 0}]
        data[second + 8] ^= 0x01
        data[second] = 0x00  # a wrong start byte
        write_raw(directory, bytes(data))
        assert read_all(directory) == [{"type": "result", "seq": 0}]
    finally:
        remove_directory(directory)


def test_rewrite_replaces_the_journal_and_a_leftover_temporary_file_is_ignored():
    directory = new_directory()
    try:
        journal = Journal(directory)
        for n in range(4):
            journal.append({"type": "result", "seq": n})
        journal.rewrite([{"type": "tally", "boards": 4, "seq": 4}])
        assert read_all(directory) == [{"type": "tally", "boards": 4, "seq": 4}]
        # A rewrite cut before its rename leaves journal.tmp: the journal is the old one, whole.
        with open(directory + "/journal.tmp", "wb") as f:
            f.write(encode({"type": "result", "seq": 99})[:7])
        assert read_all(directory) == [{"type": "tally", "boards": 4, "seq": 4}]
        Journal(directory)
        import os

        assert "journal.tmp" not in os.listdir(directory)
    finally:
        remove_directory(directory)


def test_compaction_keeps_what_the_state_needs_and_the_numbering():
    # A small compaction threshold: the journal is rewritten many times during the session.
    sim = Simulator(compact_bytes=600)
    try:
        sim.sign_in(2)
        sim.press("OK")
        sim.type("4 S N K H + 1 OK PASS OK")
        sim.radio.losing.add(APP_SEQ + 3)  # the frame of board 3 never gets through
        sim.type("3 NT S 5 D = OK")  # round 1 complete, board 3 not acknowledged
        sim.type("OK OK 2 H E A S - 1 OK")  # round 2 (asked for: the host lacks board 3), board 4
        app = sim.app
        assert sorted(app.pending) == [3], sorted(app.pending)
        size_before = app.journal.size
        app.compact()
        assert app.journal.size <= size_before
        before = (app.plan["round"], sorted(app.results), sorted(app.pending), app.next_seq, app.boards_entered)
        app = sim.reboot()
        after = (app.plan["round"], sorted(app.results), sorted(app.pending), app.next_seq, app.boards_entered)
        assert before == after == (2, [4], [3], 5, 3), (before, after)
        sim.radio.losing.clear()
        sim.wait(12000)  # board 3 goes again (the longest retransmission delay is 12 s) and is acknowledged
        assert not sim.app.pending
        assert "Board 5 saved" in " ".join(sim.type("OK 1 C W K H = OK")[-1].split())
        assert sim.host.result(2, 5) == "played v0 1C W 7 HK -70", sim.host.result(2, 5)
    finally:
        sim.close()


def test_the_screen_says_not_saved_when_the_journal_cannot_be_written():
    sim = Simulator()
    try:
        sim.sign_in(1)
        sim.type("OK 4 S N K H + 1")

        def broken(record):
            raise OSError(28)  # ENOSPC: the flash is full

        sim.app.journal.append = broken
        screen = " ".join(sim.press("OK").split())
        assert "NOT SAVED" in screen and "Board 1 saved" not in screen and "NS +450" in screen, screen
        assert not sim.app.pending and not sim.host.stored()
    finally:
        sim.close()
