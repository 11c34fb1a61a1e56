"""The event file's SQLite schema: one tuple of migrations, each bringing the file one version up."""

from __future__ import annotations

# Stored in PRAGMA application_id so that a Tenace event file is told apart from any other SQLite file.
APPLICATION_ID = 0x54454E41  # "TENA"

# Result kinds; the same words are used by the ingest API, the queries and `tenace problems --json`.
KINDS = ("normal", "passed_out", "not_played", "artificial", "weighted", "erased")

_V1 = """
CREATE TABLE event (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    date TEXT NOT NULL,
    scoring TEXT NOT NULL CHECK (scoring IN ('matchpoints', 'imps', 'total_points')),
    created TEXT NOT NULL
);

CREATE TABLE section (
    name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 8),
    movement TEXT NOT NULL,
    tables INTEGER NOT NULL CHECK (tables >= 1),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    boards_per_round INTEGER NOT NULL CHECK (boards_per_round >= 1)
);

-- The movement: who sits where in each round, and the boards they play there.
CREATE TABLE encounter (
    section TEXT NOT NULL REFERENCES section(name),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    round INTEGER NOT NULL CHECK (round >= 1),
    ns_pair INTEGER NOT NULL CHECK (ns_pair >= 1),
    ew_pair INTEGER NOT NULL CHECK (ew_pair >= 1),
    PRIMARY KEY (section, table_no, round)
) WITHOUT ROWID;

CREATE TABLE encounter_board (
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL CHECK (board >= 1),
    PRIMARY KEY (section, table_no, round, board),
    FOREIGN KEY (section, table_no, round) REFERENCES encounter(section, table_no, round)
) WITHOUT ROWID;

-- Where each terminal is signed in now; sign_in keeps the history.
CREATE TABLE terminal (
    id INTEGER PRIMARY KEY CHECK (id >= 0),
    section TEXT NOT NULL REFERENCES section(name),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    signed_in TEXT NOT NULL,
    last_seq INTEGER,
    last_heard TEXT
);

CREATE TABLE sign_in (
    id INTEGER PRIMARY KEY,
    terminal INTEGER NOT NULL REFERENCES terminal(id),
    section TEXT NOT NULL REFERENCES section(name),
    table_no INTEGER NOT NULL,
    at TEXT NOT NULL,
    who TEXT NOT NULL
);

-- The host's own sequence numbers towards each terminal are reserved here in blocks before use, so
-- that after a restart the host never reuses one (the terminal would take a new message for a replay).
CREATE TABLE host_sequence (
    terminal INTEGER PRIMARY KEY CHECK (terminal >= 0),
    reserved INTEGER NOT NULL CHECK (reserved >= 1)
);

-- Every distinct frame the host decided on. A (terminal, seq) is stored at most once; a refused frame
-- may be stored later (its refusal depended on the event, e.g. a terminal not yet signed in).
CREATE TABLE frame (
    id INTEGER PRIMARY KEY,
    terminal INTEGER NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 0),
    digest TEXT NOT NULL,
    received TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('stored', 'refused')),
    refusal INTEGER REFERENCES refusal(id),
    CHECK ((outcome = 'refused') = (refusal IS NOT NULL))
);
CREATE UNIQUE INDEX frame_stored_once ON frame(terminal, seq) WHERE outcome = 'stored';
CREATE INDEX frame_by_sequence ON frame(terminal, seq);

-- Refused frames, with what the TD needs to see: the reason (a stable code), the detail, the fields
-- as they arrived and the raw frame when the collector has it. Terminal and seq are NULL when unusable.
CREATE TABLE refusal (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    terminal INTEGER,
    seq INTEGER,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    message TEXT,
    raw_hex TEXT
);
CREATE INDEX refusal_by_reason ON refusal(reason, id);

-- Results, append-only: a correction, an erasure or an adjusted score is a new version of its slot
-- (section, table, round, board) that lists in result_supersedes the versions it replaces. `version`
-- counts the host's versions of the slot; `revision` is the terminal's own count of its entries for
-- the board (0 the first, 1-15 corrections through its director menu), NULL for the director's.
CREATE TABLE result (
    id INTEGER PRIMARY KEY,
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    ns_pair INTEGER NOT NULL CHECK (ns_pair >= 1),
    ew_pair INTEGER NOT NULL CHECK (ew_pair >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('normal', 'passed_out', 'not_played', 'artificial', 'weighted', 'erased')),
    contract TEXT,
    declarer TEXT CHECK (declarer IN ('N', 'E', 'S', 'W')),
    tricks INTEGER CHECK (tricks BETWEEN 0 AND 13),
    lead TEXT,
    ns_score INTEGER,
    ns_adjust TEXT,
    ew_adjust TEXT,
    weights TEXT,
    source TEXT NOT NULL CHECK (source IN ('terminal', 'director')),
    terminal INTEGER,
    frame INTEGER UNIQUE REFERENCES frame(id),
    revision INTEGER CHECK (revision BETWEEN 0 AND 15),
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    why TEXT,
    UNIQUE (section, table_no, round, board, version),
    FOREIGN KEY (section, table_no, round, board) REFERENCES encounter_board(section, table_no, round, board),
    CHECK ((source = 'terminal') = (frame IS NOT NULL AND revision IS NOT NULL)),
    CHECK ((kind = 'normal') = (contract IS NOT NULL AND declarer IS NOT NULL AND tricks IS NOT NULL)),
    CHECK ((kind IN ('normal', 'passed_out')) = (ns_score IS NOT NULL)),
    CHECK ((kind = 'artificial') = (ns_adjust IS NOT NULL AND ew_adjust IS NOT NULL)),
    CHECK ((kind = 'weighted') = (weights IS NOT NULL))
);
CREATE INDEX result_by_slot ON result(section, table_no, round, board);

CREATE TABLE result_supersedes (
    result INTEGER NOT NULL REFERENCES result(id),
    supersedes INTEGER NOT NULL REFERENCES result(id),
    PRIMARY KEY (result, supersedes),
    -- Not "supersedes < result": a terminal's revision 0 that arrives after its revision 1 is stored
    -- already superseded by the older row.
    CHECK (supersedes <> result)
) WITHOUT ROWID;
CREATE INDEX superseded ON result_supersedes(supersedes);

-- Hard rule 4 in the file itself: what was recorded is never changed or removed, by any program.
CREATE TRIGGER result_append_only_u BEFORE UPDATE ON result
BEGIN SELECT RAISE(ABORT, 'results are append-only: enter a new version'); END;
CREATE TRIGGER result_append_only_d BEFORE DELETE ON result
BEGIN SELECT RAISE(ABORT, 'results are append-only: enter a new version'); END;
CREATE TRIGGER supersedes_append_only_u BEFORE UPDATE ON result_supersedes
BEGIN SELECT RAISE(ABORT, 'result history is append-only'); END;
CREATE TRIGGER supersedes_append_only_d BEFORE DELETE ON result_supersedes
BEGIN SELECT RAISE(ABORT, 'result history is append-only'); END;
CREATE TRIGGER frame_append_only_u BEFORE UPDATE ON frame
BEGIN SELECT RAISE(ABORT, 'received frames are append-only'); END;
CREATE TRIGGER frame_append_only_d BEFORE DELETE ON frame
BEGIN SELECT RAISE(ABORT, 'received frames are append-only'); END;
CREATE TRIGGER refusal_append_only_u BEFORE UPDATE ON refusal
BEGIN SELECT RAISE(ABORT, 'refusals are append-only'); END;
CREATE TRIGGER refusal_append_only_d BEFORE DELETE ON refusal
BEGIN SELECT RAISE(ABORT, 'refusals are append-only'); END;
"""

# The radio link (the collector): the event's pairing code and key, player numbers, counters of noise.
_V2 = """
-- One row: the pairing code shown on the laptop, the event nonce sent in PAIR_OFFER, the key both derive.
CREATE TABLE link_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    code TEXT NOT NULL CHECK (length(code) = 6),
    nonce BLOB NOT NULL CHECK (length(nonce) = 8),
    key BLOB NOT NULL CHECK (length(key) = 16),
    created TEXT NOT NULL
);

-- Player numbers keyed at a table for a round (PLAYERS messages), append-only, once per frame.
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    round INTEGER NOT NULL CHECK (round >= 1),
    north INTEGER NOT NULL CHECK (north >= 0),
    east INTEGER NOT NULL CHECK (east >= 0),
    south INTEGER NOT NULL CHECK (south >= 0),
    west INTEGER NOT NULL CHECK (west >= 0),
    terminal INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (terminal, seq)
);
CREATE INDEX players_by_table ON players(section, table_no, round, id);
CREATE TRIGGER players_append_only_u BEFORE UPDATE ON players
BEGIN SELECT RAISE(ABORT, 'player numbers are append-only: key them again'); END;
CREATE TRIGGER players_append_only_d BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'player numbers are append-only: key them again'); END;

-- Frames heard, per reason (accepted, duplicate, or why refused): noise is only counted, never a row each.
CREATE TABLE link_counter (
    reason TEXT PRIMARY KEY CHECK (length(reason) BETWEEN 1 AND 40),
    count INTEGER NOT NULL CHECK (count >= 0)
) WITHOUT ROWID;
"""

# Hand records: each board's deal, for the terminals' lead check and the reports.
_V3 = """
CREATE TABLE hand_record (
    section TEXT NOT NULL REFERENCES section(name),
    board INTEGER NOT NULL CHECK (board >= 1),
    deal TEXT NOT NULL CHECK (length(deal) = 69 AND substr(deal, 1, 2) = 'N:'),
    PRIMARY KEY (section, board)
) WITHOUT ROWID;
"""

# The director's evening: the log of the TD's actions, Law 90 penalties, the session's publication (Law 79C).
_V4 = """
-- Every action the director took at the laptop, with when, who and why; `result` is the version it entered.
-- `forced`: taken after the Law 79C correction period, which only --force allows. Refused actions add nothing.
CREATE TABLE director_action (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    who TEXT NOT NULL CHECK (length(who) BETWEEN 1 AND 80),
    why TEXT NOT NULL CHECK (length(why) BETWEEN 1 AND 500),
    action TEXT NOT NULL CHECK (action IN ('adjust', 'correct', 'erase', 'resolve', 'penalty', 'finish')),
    detail TEXT NOT NULL,
    result INTEGER UNIQUE REFERENCES result(id),
    forced INTEGER NOT NULL DEFAULT 0 CHECK (forced IN (0, 1))
);

-- Law 90 procedural penalties, each against one pair: taken off its total, never out of a table's result.
-- `amount` is a fraction as text ("5/2"); in MPs, or in percent of a top (of `board`'s when given).
CREATE TABLE pair_penalty (
    action INTEGER PRIMARY KEY REFERENCES director_action(id),
    section TEXT NOT NULL REFERENCES section(name),
    pair INTEGER NOT NULL CHECK (pair >= 1),
    direction TEXT CHECK (direction IN ('NS', 'EW')),
    amount TEXT NOT NULL,
    unit TEXT NOT NULL CHECK (unit IN ('MP', '%top')),
    board INTEGER CHECK (board >= 1)
);

-- The session finished and its results published; the correction period runs `correction_minutes` from then.
CREATE TABLE publication (
    action INTEGER PRIMARY KEY REFERENCES director_action(id),
    correction_minutes INTEGER NOT NULL CHECK (correction_minutes BETWEEN 0 AND 10080)
);

CREATE TRIGGER director_action_append_only_u BEFORE UPDATE ON director_action
BEGIN SELECT RAISE(ABORT, 'the director''s log is append-only'); END;
CREATE TRIGGER director_action_append_only_d BEFORE DELETE ON director_action
BEGIN SELECT RAISE(ABORT, 'the director''s log is append-only'); END;
CREATE TRIGGER pair_penalty_append_only_u BEFORE UPDATE ON pair_penalty
BEGIN SELECT RAISE(ABORT, 'penalties are append-only'); END;
CREATE TRIGGER pair_penalty_append_only_d BEFORE DELETE ON pair_penalty
BEGIN SELECT RAISE(ABORT, 'penalties are append-only'); END;
CREATE TRIGGER publication_append_only_u BEFORE UPDATE ON publication
BEGIN SELECT RAISE(ABORT, 'publications are append-only'); END;
CREATE TRIGGER publication_append_only_d BEFORE DELETE ON publication
BEGIN SELECT RAISE(ABORT, 'publications are append-only'); END;
"""

# Hand records' double-dummy analysis (endplay, on DDS): tricks and par, for the reports and the players.
_V5 = """
-- `deal` is the deal that was analysed: an analysis is shown only with the same deal, never with one that
-- replaced it since. `tricks`: 20 hexadecimal digits, declarers N E S W in turn, each strains C D H S NT.
-- `par_score` is NS's; `par_contracts` the par contracts as text ("4S N =;4S S =", "4CX S -1").
CREATE TABLE double_dummy (
    section TEXT NOT NULL,
    board INTEGER NOT NULL,
    deal TEXT NOT NULL CHECK (length(deal) = 69 AND substr(deal, 1, 2) = 'N:'),
    tricks TEXT NOT NULL CHECK (length(tricks) = 20),
    par_score INTEGER NOT NULL,
    par_contracts TEXT NOT NULL,
    PRIMARY KEY (section, board),
    FOREIGN KEY (section, board) REFERENCES hand_record(section, board)
) WITHOUT ROWID;
"""

# Names: the club's roster (player numbers as keyed at the tables), and a pair's players set by the director.
_V6 = """
CREATE TABLE roster (
    number INTEGER PRIMARY KEY CHECK (number BETWEEN 1 AND 999999),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    club_id TEXT CHECK (club_id IS NULL OR length(club_id) BETWEEN 1 AND 40)
);

-- The director's word on who a pair is; it wins over the numbers keyed at the tables. `direction` is ''
-- for a pair that changes direction (a Howell).
CREATE TABLE pair_players (
    section TEXT NOT NULL REFERENCES section(name),
    pair INTEGER NOT NULL CHECK (pair >= 1),
    direction TEXT NOT NULL CHECK (direction IN ('NS', 'EW', '')),
    first INTEGER NOT NULL CHECK (first >= 1),
    second INTEGER NOT NULL CHECK (second >= 1),
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (section, pair, direction)
) WITHOUT ROWID;
"""

# A section's kind of movement (tenace.movement.Movement.kind): whether its pairs are two fields (a Mitchell, where
# NS 3 and EW 3 are two pairs) or one (a Howell, where pair 3 sits NS in one round and EW in another). Files made
# before it held only Mitchells.
_V7 = """
ALTER TABLE section ADD COLUMN kind TEXT NOT NULL DEFAULT 'mitchell' CHECK (kind IN ('mitchell', 'howell', 'teams'));
"""

# Movement changes during the session (tenace move): pairs absent or back, tables closed, pairs swapped.
_V8 = """
-- The director's log takes 'move'. SQLite changes a CHECK only by making the table anew (migrate() runs each
-- script with foreign keys off, as SQLite's procedure for this says, and checks them before it commits).
CREATE TABLE director_action_v8 (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    who TEXT NOT NULL CHECK (length(who) BETWEEN 1 AND 80),
    why TEXT NOT NULL CHECK (length(why) BETWEEN 1 AND 500),
    action TEXT NOT NULL CHECK (action IN ('adjust', 'correct', 'erase', 'resolve', 'penalty', 'finish', 'move')),
    detail TEXT NOT NULL,
    result INTEGER UNIQUE REFERENCES result(id),
    forced INTEGER NOT NULL DEFAULT 0 CHECK (forced IN (0, 1))
);
INSERT INTO director_action_v8 (id, at, who, why, action, detail, result, forced)
    SELECT id, at, who, why, action, detail, result, forced FROM director_action;
DROP TABLE director_action;
ALTER TABLE director_action_v8 RENAME TO director_action;
CREATE TRIGGER director_action_append_only_u BEFORE UPDATE ON director_action
BEGIN SELECT RAISE(ABORT, 'the director''s log is append-only'); END;
CREATE TRIGGER director_action_append_only_d BEFORE DELETE ON director_action
BEGIN SELECT RAISE(ABORT, 'the director''s log is append-only'); END;

-- A pair absent (a phantom, a late pair before it came, a pair gone home) or present over rounds, as the
-- director said; for a round, the latest row that covers it wins. Whoever meets an absent pair sits out.
-- `field` is the pair's as in pair_players: 'NS' or 'EW' in a Mitchell, '' where pairs change direction.
CREATE TABLE presence (
    action INTEGER NOT NULL REFERENCES director_action(id),
    section TEXT NOT NULL REFERENCES section(name),
    field TEXT NOT NULL CHECK (field IN ('NS', 'EW', '')),
    pair INTEGER NOT NULL CHECK (pair >= 1),
    first_round INTEGER NOT NULL CHECK (first_round >= 1),
    last_round INTEGER NOT NULL CHECK (last_round >= first_round),
    present INTEGER NOT NULL CHECK (present IN (0, 1)),
    PRIMARY KEY (action, section, field, pair, first_round)
) WITHOUT ROWID;

-- A table out of play from a round on (it finished early): both pairs there sit out.
CREATE TABLE table_closure (
    action INTEGER NOT NULL REFERENCES director_action(id),
    section TEXT NOT NULL REFERENCES section(name),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    first_round INTEGER NOT NULL CHECK (first_round >= 1),
    PRIMARY KEY (action, section, table_no)
) WITHOUT ROWID;

-- Two pairs of one field that changed places from a round on (the encounters say where each sits now).
CREATE TABLE pair_swap (
    action INTEGER PRIMARY KEY REFERENCES director_action(id),
    section TEXT NOT NULL REFERENCES section(name),
    field TEXT NOT NULL CHECK (field IN ('NS', 'EW', '')),
    first_pair INTEGER NOT NULL CHECK (first_pair >= 1),
    second_pair INTEGER NOT NULL CHECK (second_pair >= 1),
    first_round INTEGER NOT NULL CHECK (first_round >= 1)
);

CREATE TRIGGER presence_append_only_u BEFORE UPDATE ON presence
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;
CREATE TRIGGER presence_append_only_d BEFORE DELETE ON presence
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;
CREATE TRIGGER table_closure_append_only_u BEFORE UPDATE ON table_closure
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;
CREATE TRIGGER table_closure_append_only_d BEFORE DELETE ON table_closure
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;
CREATE TRIGGER pair_swap_append_only_u BEFORE UPDATE ON pair_swap
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;
CREATE TRIGGER pair_swap_append_only_d BEFORE DELETE ON pair_swap
BEGIN SELECT RAISE(ABORT, 'movement changes are append-only: make another'); END;

-- Derived from presence and table_closure at each change (and so rewritten): the table rounds where nobody
-- plays; `ns_out`/`ew_out` say which of the encounter's pairs is not there.
CREATE TABLE sit_out (
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    round INTEGER NOT NULL,
    ns_out INTEGER NOT NULL CHECK (ns_out IN (0, 1)),
    ew_out INTEGER NOT NULL CHECK (ew_out IN (0, 1)),
    PRIMARY KEY (section, table_no, round),
    FOREIGN KEY (section, table_no, round) REFERENCES encounter(section, table_no, round)
) WITHOUT ROWID;
"""

# The field tools (issue 14): each terminal's latest status report, and the radio surveys tenace survey asks for.
_V9 = """
-- The latest STATUS each terminal sent (tenace_wire/field_messages.py), for `tenace terminals`: one row a
-- terminal, replaced by the next. `factory` is its last factory test; `checks` the checks that passed in it.
CREATE TABLE terminal_status (
    terminal INTEGER PRIMARY KEY CHECK (terminal >= 1),
    received TEXT NOT NULL,
    firmware TEXT NOT NULL CHECK (length(firmware) BETWEEN 1 AND 20),
    battery_mv INTEGER CHECK (battery_mv BETWEEN 1 AND 8191),  -- NULL: the board gives no voltage
    battery INTEGER NOT NULL CHECK (battery BETWEEN 0 AND 100),
    rssi INTEGER CHECK (rssi BETWEEN -127 AND -1),  -- dBm; NULL: the radio does not tell
    sent INTEGER NOT NULL CHECK (sent >= 0),
    retried INTEGER NOT NULL CHECK (retried >= 0),
    factory TEXT NOT NULL CHECK (factory IN ('not run', 'passed', 'failed')),
    checks TEXT NOT NULL  -- the checks that passed, space-separated: "keys display radio battery"
);

-- `tenace survey`: a request the running collector takes up (it polls the file), then the round trips it timed
-- per terminal: PINGs sent, ACKs back, and the round trip's fastest, median and slowest in milliseconds.
CREATE TABLE survey (
    id INTEGER PRIMARY KEY,
    asked TEXT NOT NULL,
    seconds INTEGER NOT NULL CHECK (seconds BETWEEN 1 AND 600),
    interval_ms INTEGER NOT NULL CHECK (interval_ms BETWEEN 20 AND 10000),
    started TEXT,
    finished TEXT
);

CREATE TABLE survey_result (
    survey INTEGER NOT NULL REFERENCES survey(id),
    terminal INTEGER NOT NULL CHECK (terminal >= 1),
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL,
    pings INTEGER NOT NULL CHECK (pings >= 0),
    answered INTEGER NOT NULL CHECK (answered BETWEEN 0 AND pings),
    rtt_min INTEGER,
    rtt_median INTEGER,
    rtt_max INTEGER,
    PRIMARY KEY (survey, terminal)
) WITHOUT ROWID;
"""

# Law 12C1(b) scores that need not balance, and individual events.
_V10 = """
-- A weighted (or assigned) result's `weights` are North-South's and `ew_weights` East-West's when the two sides'
-- scores need not balance (NULL: one score for both sides, as before).
ALTER TABLE result ADD COLUMN ew_weights TEXT CHECK (ew_weights IS NULL OR (kind = 'weighted' AND weights IS NOT NULL));

-- 'individual' among the sections' kinds: SQLite changes a CHECK only by making the table anew (foreign keys off
-- while migrate() runs the script; the tables that refer to section name it, and find the new one).
CREATE TABLE section_v10 (
    name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 8),
    movement TEXT NOT NULL,
    tables INTEGER NOT NULL CHECK (tables >= 1),
    rounds INTEGER NOT NULL CHECK (rounds >= 1),
    boards_per_round INTEGER NOT NULL CHECK (boards_per_round >= 1),
    kind TEXT NOT NULL DEFAULT 'mitchell' CHECK (kind IN ('mitchell', 'howell', 'teams', 'individual'))
);
INSERT INTO section_v10 (name, movement, tables, rounds, boards_per_round, kind)
    SELECT name, movement, tables, rounds, boards_per_round, kind FROM section;
DROP TABLE section;
ALTER TABLE section_v10 RENAME TO section;

-- An individual's partnerships, the "pairs" of its encounters: the two players of each, North or East first.
CREATE TABLE partnership (
    section TEXT NOT NULL REFERENCES section(name),
    number INTEGER NOT NULL CHECK (number >= 1),
    first_player INTEGER NOT NULL CHECK (first_player >= 1),
    second_player INTEGER NOT NULL CHECK (second_player >= 1 AND second_player <> first_player),
    PRIMARY KEY (section, number)
) WITHOUT ROWID;

-- Who an individual's players are (their member numbers, names in the roster), as the director set them.
CREATE TABLE individual_player (
    section TEXT NOT NULL REFERENCES section(name),
    player INTEGER NOT NULL CHECK (player >= 1),
    member INTEGER NOT NULL CHECK (member >= 1),
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (section, player)
) WITHOUT ROWID;
"""

# How each terminal paired (issue 14's club key): the collector refuses a pairing with the code alone to a terminal
# that paired with the club key, also after a restart, so that a forged HELLO cannot downgrade it (auth.py).
_V11 = """
CREATE TABLE terminal_pairing (
    terminal INTEGER PRIMARY KEY CHECK (terminal >= 1),
    way TEXT NOT NULL CHECK (way IN ('club', 'code')),
    club_id TEXT,
    at TEXT NOT NULL,
    CHECK ((way = 'club') = (club_id IS NOT NULL))
);
"""

# Teams (a section of kind 'teams'): each team's number and name, the same in every section of the event (a Swiss
# plays a section a round). Team t's pairs are 2t - 1 (North-South at home) and 2t (tenace.movement.teams); their
# players are in pair_players like any pair's.
_V12 = """
CREATE TABLE team (
    number INTEGER PRIMARY KEY CHECK (number BETWEEN 1 AND 499),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    who TEXT NOT NULL,
    at TEXT NOT NULL
);

-- A Swiss round's bye (a section a round, an odd number of teams): the team that sat out and the VPs the
-- regulations give it ("12.00").
CREATE TABLE swiss_bye (
    section TEXT PRIMARY KEY REFERENCES section(name),
    team INTEGER NOT NULL REFERENCES team(number),
    vps TEXT NOT NULL
);
"""

# Every change chained (tenace.store.ledger): the tables whose rows are the evening's evidence, each with its key
# columns and all its columns, as they are at version 13 (never edit: a later migration adds what it changes). Each row
# written, changed or deleted by Tenace adds an entry to the ledger, in the same transaction: the row's key and its
# content (the JSON array of its columns; null once deleted), and a digest, SHA-256 of the entry before's digest and
# this content. An edit made outside Tenace no longer matches the latest content of its row, and a content edited to
# match breaks the chain from there on. tenace_digest() is registered on every connection Tenace writes with
# (db.connect): a program without it cannot change these tables without dropping the triggers, which is seen too.
CHAINED: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ('event', ('id',), ('id', 'name', 'date', 'scoring', 'created')),
    ('section', ('name',), ('name', 'movement', 'tables', 'rounds', 'boards_per_round', 'kind')),
    ('partnership', ('section', 'number'), ('section', 'number', 'first_player', 'second_player')),
    ('individual_player', ('section', 'player'), ('section', 'player', 'member', 'who', 'at')),
    ('encounter', ('section', 'table_no', 'round'), ('section', 'table_no', 'round', 'ns_pair', 'ew_pair')),
    ('encounter_board', ('section', 'table_no', 'round', 'board'), ('section', 'table_no', 'round', 'board')),
    ('result', ('id',),
     ('id', 'section', 'table_no', 'round', 'board', 'version', 'ns_pair', 'ew_pair', 'kind', 'contract',
      'declarer', 'tricks', 'lead', 'ns_score', 'ns_adjust', 'ew_adjust', 'weights', 'source', 'terminal', 'frame',
      'revision', 'who', 'at', 'why', 'ew_weights')),
    ('result_supersedes', ('result', 'supersedes'), ('result', 'supersedes')),
    ('players', ('id',),
     ('id', 'section', 'table_no', 'round', 'north', 'east', 'south', 'west', 'terminal', 'seq', 'at')),
    ('hand_record', ('section', 'board'), ('section', 'board', 'deal')),
    ('double_dummy', ('section', 'board'), ('section', 'board', 'deal', 'tricks', 'par_score', 'par_contracts')),
    ('presence', ('action', 'section', 'field', 'pair', 'first_round'),
     ('action', 'section', 'field', 'pair', 'first_round', 'last_round', 'present')),
    ('table_closure', ('action', 'section', 'table_no'), ('action', 'section', 'table_no', 'first_round')),
    ('pair_penalty', ('action',), ('action', 'section', 'pair', 'direction', 'amount', 'unit', 'board')),
    ('publication', ('action',), ('action', 'correction_minutes')),
    ('roster', ('number',), ('number', 'name', 'club_id')),
    ('pair_players', ('section', 'pair', 'direction'),
     ('section', 'pair', 'direction', 'first', 'second', 'who', 'at')),
    ('director_action', ('id',), ('id', 'at', 'who', 'why', 'action', 'detail', 'result', 'forced')),
    ('pair_swap', ('action',), ('action', 'section', 'field', 'first_pair', 'second_pair', 'first_round')),
    ('sit_out', ('section', 'table_no', 'round'), ('section', 'table_no', 'round', 'ns_out', 'ew_out')),
    ('team', ('number',), ('number', 'name', 'who', 'at')),
    ('swiss_bye', ('section',), ('section', 'team', 'vps')),
)


def _json(prefix: str, columns: tuple[str, ...]) -> str:
    return "json_array(" + ", ".join(f"{prefix}{c}" for c in columns) + ")"


def _chained(table: str, key: tuple[str, ...], columns: tuple[str, ...]) -> str:
    """The triggers that chain a table's inserts, updates and deletes, and the entries of the rows it has now."""
    new_key, old_key = _json("NEW.", key), _json("OLD.", key)
    return f"""
CREATE TRIGGER {table}_chained_i AFTER INSERT ON {table}
BEGIN INSERT INTO ledger (source, key, content) VALUES ('{table}', {new_key}, {_json("NEW.", columns)}); END;
CREATE TRIGGER {table}_chained_u AFTER UPDATE ON {table}
BEGIN
    INSERT INTO ledger (source, key, content) SELECT '{table}', {old_key}, 'null' WHERE {old_key} IS NOT {new_key};
    INSERT INTO ledger (source, key, content) VALUES ('{table}', {new_key}, {_json("NEW.", columns)});
END;
CREATE TRIGGER {table}_chained_d AFTER DELETE ON {table}
BEGIN INSERT INTO ledger (source, key, content) VALUES ('{table}', {old_key}, 'null'); END;
INSERT INTO ledger (source, key, content)
    SELECT '{table}', {_json("", key)}, {_json("", columns)} FROM {table} ORDER BY {", ".join(key)};
"""


_V13 = """
-- The chain of every change: an entry per row of the tables in CHAINED written, changed or deleted, in that order.
-- `digest` is filled by ledger_digest as the entry is added, from the entry before it.
CREATE TABLE ledger (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    key TEXT NOT NULL,
    content TEXT NOT NULL,
    digest TEXT CHECK (digest IS NULL OR length(digest) = 64)
);
CREATE INDEX ledger_by_row ON ledger(source, key);
CREATE TRIGGER ledger_digest AFTER INSERT ON ledger
BEGIN
    UPDATE ledger SET digest = tenace_digest(
        coalesce((SELECT digest FROM ledger WHERE id < NEW.id ORDER BY id DESC LIMIT 1), ''), NEW.content)
    WHERE id = NEW.id;
END;
CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger WHEN OLD.digest IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'the chain of changes is append-only'); END;
CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
BEGIN SELECT RAISE(ABORT, 'the chain of changes is append-only'); END;
""" + "".join(_chained(*table) for table in CHAINED)

# A simultaneous event (issue 25): the club's link to the sim's hub, and the outbox of what the club pushes there.
# Neither is chained in the ledger: the outbox is derived from chained rows (each entry names a result version or a
# penalty, and what is pushed is computed from them), and the link's acknowledged number moves with every answer of
# the hub; an outbox edited outside Tenace changes nothing the club's results say, and the hub refuses a push that
# differs from the one it holds under the same key.
_V14 = """
-- The sim this event is part of: where its hub is, the sim's and the club's ids there, and the club's token (a
-- secret: whoever has it can push as this club). `acked`: the highest outbox seq the hub said it holds.
CREATE TABLE hub_link (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    hub TEXT NOT NULL CHECK (length(hub) BETWEEN 1 AND 500),
    sim TEXT NOT NULL CHECK (length(sim) BETWEEN 1 AND 64),
    club TEXT NOT NULL CHECK (length(club) BETWEEN 1 AND 64),
    token TEXT NOT NULL CHECK (length(token) BETWEEN 1 AND 200),
    linked TEXT NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0 CHECK (acked >= 0),
    last_try TEXT,
    last_error TEXT
);

-- Every change of what counts in a slot (a result version stored) and every Law 90 penalty, in the order they were
-- written, numbered 1, 2, 3... without a gap: enqueued by the triggers below in the writer's own transaction, so
-- that nothing stored is ever missing here. `push` is the push as first computed (tenace.store.hub_outbox), kept so
-- that a resend is the same push.
CREATE TABLE hub_outbox (
    seq INTEGER PRIMARY KEY CHECK (seq >= 1),
    result INTEGER UNIQUE REFERENCES result(id),
    penalty INTEGER UNIQUE REFERENCES pair_penalty(action),
    push TEXT,
    CHECK ((result IS NULL) <> (penalty IS NULL))
);
CREATE TRIGGER hub_outbox_result AFTER INSERT ON result
BEGIN INSERT INTO hub_outbox (seq, result) VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM hub_outbox), NEW.id); END;
CREATE TRIGGER hub_outbox_penalty AFTER INSERT ON pair_penalty
BEGIN
    INSERT INTO hub_outbox (seq, penalty) VALUES ((SELECT coalesce(max(seq), 0) + 1 FROM hub_outbox), NEW.action);
END;
CREATE TRIGGER hub_outbox_append_only_u BEFORE UPDATE ON hub_outbox
WHEN OLD.push IS NOT NULL OR NEW.seq IS NOT OLD.seq OR NEW.result IS NOT OLD.result OR NEW.penalty IS NOT OLD.penalty
BEGIN SELECT RAISE(ABORT, 'the outbox is append-only'); END;
CREATE TRIGGER hub_outbox_append_only_d BEFORE DELETE ON hub_outbox
BEGIN SELECT RAISE(ABORT, 'the outbox is append-only'); END;

-- What the file holds already, in the order it was written: results, then penalties.
INSERT INTO hub_outbox (seq, result) SELECT row_number() OVER (ORDER BY id), id FROM result;
INSERT INTO hub_outbox (seq, penalty)
    SELECT (SELECT count(*) FROM result) + row_number() OVER (ORDER BY action), action FROM pair_penalty;
"""

# The event's settings (issue 32): a practice event, which simulated terminals may play into. Written once, when the
# event is made (tenace.store.event), and never changed: a real event stays real.
_V15 = """
-- One row a setting: `name` says which, `value` its text ('1' for practice).
CREATE TABLE event_setting (
    name TEXT PRIMARY KEY CHECK (name IN ('practice')),
    value TEXT NOT NULL CHECK (length(value) BETWEEN 1 AND 200)
);
CREATE TRIGGER event_setting_fixed_u BEFORE UPDATE ON event_setting
BEGIN SELECT RAISE(ABORT, 'the event''s settings are fixed when it is made'); END;
CREATE TRIGGER event_setting_fixed_d BEFORE DELETE ON event_setting
BEGIN SELECT RAISE(ABORT, 'the event''s settings are fixed when it is made'); END;
"""

# What round plans each terminal holds (issue 32): the console shows which tables have the director's latest change.
# Not chained in the ledger: the collector's record of the link, like terminal_status.
_V16 = """
-- The movement whose round plans each terminal holds: `movement` is the director's log id of the latest movement
-- change (0: none) when every round plan the collector sent the terminal, at its sign-in or after that change, was
-- acknowledged; `at`, when.
CREATE TABLE terminal_plans (
    terminal INTEGER PRIMARY KEY CHECK (terminal >= 1),
    movement INTEGER NOT NULL CHECK (movement >= 0),
    at TEXT NOT NULL
);
"""

# The tables chained since a later migration, as CHAINED (the ledger checks both): what each migration adds.
CHAINED_LATER: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ('roster_figures', ('number',), ('number', 'masterpoints', 'handicap')),  # version 17
)

# The roster's masterpoints and handicaps (issue 35): kept in the event file as the roster CSV gave them when it was
# imported, so that a championship's strata and handicap ranking stay those of the sessions as played, whatever the
# CSV says later. Chained, as the roster is: they place pairs.
_V17 = """
-- A member's masterpoints and handicap from the roster CSV (tenace names --roster, the console's roster), as
-- decimals written out ("1234.5", "-2"); a member with neither has no row. Each roster import replaces them.
CREATE TABLE roster_figures (
    number INTEGER PRIMARY KEY REFERENCES roster(number),
    masterpoints TEXT CHECK (masterpoints IS NULL OR length(masterpoints) BETWEEN 1 AND 24),
    handicap TEXT CHECK (handicap IS NULL OR length(handicap) BETWEEN 1 AND 24),
    CHECK (masterpoints IS NOT NULL OR handicap IS NOT NULL)
);
""" + _chained(*CHAINED_LATER[0])

# The tables calling the director, and the round clock (issue 35). Not chained in the ledger: the collector's record
# of the link, like terminal_status; the clock is the director's setting of the room, not a result.
_V18 = """
-- A table's call of the director, as the collector stored it (one row per CALL frame: its terminal and sequence
-- number, so a frame heard again is one call); `call` is the table's own number for it, `left` the minutes the
-- table's round clock showed (NULL: none), `at` when it arrived, `acknowledged` when the director answered it in
-- the console and `who` the director who did, `told` when the collector sent the table COMING.
CREATE TABLE director_call (
    id INTEGER PRIMARY KEY,
    terminal INTEGER NOT NULL CHECK (terminal >= 1),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    section TEXT NOT NULL,
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    round INTEGER NOT NULL CHECK (round >= 1),
    call INTEGER NOT NULL CHECK (call BETWEEN 1 AND 255),
    left_minutes INTEGER CHECK (left_minutes BETWEEN 0 AND 254),
    at TEXT NOT NULL,
    acknowledged TEXT,
    who TEXT,
    told TEXT,
    CHECK ((acknowledged IS NULL) = (who IS NULL)),
    UNIQUE (terminal, seq)
);
-- The round clock of a section as the director set it, a row each time (the latest counts): the round it runs
-- for, its length in minutes (0: the clock stopped), when it started and when the round ends.
CREATE TABLE round_clock (
    id INTEGER PRIMARY KEY,
    section TEXT NOT NULL,
    round INTEGER NOT NULL CHECK (round BETWEEN 1 AND 127),
    minutes INTEGER NOT NULL CHECK (minutes BETWEEN 0 AND 255),
    started TEXT NOT NULL,
    ends TEXT NOT NULL
);
"""

# (version reached, SQL script). Append a new pair to change the schema; never edit a shipped one.
MIGRATIONS: tuple[tuple[int, str], ...] = ((1, _V1), (2, _V2), (3, _V3), (4, _V4), (5, _V5), (6, _V6), (7, _V7),
                                          (8, _V8), (9, _V9), (10, _V10), (11, _V11), (12, _V12), (13, _V13),
                                          (14, _V14), (15, _V15), (16, _V16), (17, _V17),
                                          (18, _V18))
