"""The hub's PostgreSQL schema: numbered migrations, each applied once in its own transaction (hub_migrations).

Everything the hub knows is here (a scoring worker's memory of the sides is a cache of it: tenace.hub.scorer): the
simultaneous events (sims) with their heats, hand records and scoring; the clubs with their hashed tokens; every push
a club sent (pending until the gap before it is filled), the slots and penalties as the applied pushes left them; the
refused pushes (the log); the slots quarantined (unreadable: left out of the scoring); the rate windows; the
organisers' logins and sessions; and the scores across the field: each board's figures (re-scored when a push changed
its outcomes), the national ranking made from them and its live message, per sim.
"""

from __future__ import annotations

from typing import Any

import psycopg

CHANNEL = "tenace_hub"  # NOTIFY channel: the payload is "pushed <sim>" or "scored <sim> <generation>"

MIGRATIONS: tuple[str, ...] = (
    # 1: the events, clubs, pushes and what they left
    """
    CREATE TABLE sims (
        id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,64}$'),
        name text NOT NULL,
        scoring text NOT NULL CHECK (scoring IN ('mp', 'cross-imps', 'butler')),
        boards integer NOT NULL CHECK (boards BETWEEN 1 AND 9999),
        released_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE heats (
        sim text NOT NULL REFERENCES sims ON DELETE CASCADE,
        heat integer NOT NULL CHECK (heat >= 1),
        starts_at timestamptz NOT NULL,
        PRIMARY KEY (sim, heat)
    );
    CREATE TABLE deals (
        sim text NOT NULL REFERENCES sims ON DELETE CASCADE,
        board integer NOT NULL,
        dealer text NOT NULL,
        vulnerable text NOT NULL,
        deal text NOT NULL,  -- PBN's [Deal] value, "N:AKQ.. ..."
        PRIMARY KEY (sim, board)
    );
    CREATE TABLE clubs (
        sim text NOT NULL REFERENCES sims ON DELETE CASCADE,
        club text NOT NULL CHECK (club ~ '^[A-Za-z0-9_-]{1,64}$'),
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,  -- sha256 of the token, which is shown once
        revoked_at timestamptz,
        acked bigint NOT NULL DEFAULT 0,  -- the highest sequence number applied without a gap
        PRIMARY KEY (sim, club)
    );
    CREATE TABLE pushes (
        sim text NOT NULL,
        club text NOT NULL,
        seq bigint NOT NULL,
        key text NOT NULL,
        digest text NOT NULL,
        body jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (sim, club, seq),
        UNIQUE (sim, club, key),
        FOREIGN KEY (sim, club) REFERENCES clubs ON DELETE CASCADE
    );
    CREATE TABLE slots (
        sim text NOT NULL,
        club text NOT NULL,
        section text NOT NULL,
        table_no integer NOT NULL,
        round integer NOT NULL,
        board integer NOT NULL,
        seq bigint NOT NULL,
        body jsonb NOT NULL,  -- the wire's SlotPush
        PRIMARY KEY (sim, club, section, table_no, round, board),
        FOREIGN KEY (sim, club) REFERENCES clubs ON DELETE CASCADE
    );
    CREATE TABLE penalties (
        sim text NOT NULL,
        club text NOT NULL,
        action bigint NOT NULL,
        seq bigint NOT NULL,
        body jsonb NOT NULL,  -- the wire's PenaltyPush
        PRIMARY KEY (sim, club, action),
        FOREIGN KEY (sim, club) REFERENCES clubs ON DELETE CASCADE
    );
    CREATE TABLE refusals (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        sim text,
        club text,
        address text,
        status integer NOT NULL,
        reason text NOT NULL,
        key text
    );
    CREATE UNLOGGED TABLE rate_windows (
        who text NOT NULL,
        window_start bigint NOT NULL,
        requests integer NOT NULL,
        PRIMARY KEY (who, window_start)
    );
    CREATE TABLE organisers (
        login text PRIMARY KEY,
        password_hash text NOT NULL  -- scrypt$salt$hash
    );
    CREATE TABLE console_sessions (
        id_hash text PRIMARY KEY,
        login text NOT NULL REFERENCES organisers ON DELETE CASCADE,
        csrf text NOT NULL,
        seen timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE scores (
        sim text PRIMARY KEY REFERENCES sims ON DELETE CASCADE,
        generation bigint NOT NULL DEFAULT 0,  -- bumped by each push that changed a slot or a penalty (until 4)
        scored bigint NOT NULL DEFAULT 0,  -- the generation `field` was computed from
        field jsonb,  -- the national and club rankings and each pair's boards (tenace.hub.field)
        scored_at timestamptz
    );
    """,
    # 2: each pair's boards against both fields, apart from the rankings (a pair's page reads its own)
    """
    ALTER TABLE scores ADD COLUMN cards jsonb;
    """,
    # 3: the field scored board by board (tenace.hub.field): each slot's outcome and pairs as columns, the boards a
    # change left to re-score, each board's figures per distinct outcome (apart from the field's E), its entries
    """
    ALTER TABLE slots
        ADD COLUMN outcome text GENERATED ALWAYS AS (CASE
            WHEN body->>'state' IS DISTINCT FROM 'result' THEN NULL
            WHEN body->>'kind' IN ('normal', 'passed_out') THEN 'P' || coalesce(body->>'ns_score', '0')
            WHEN body->>'kind' = 'artificial' THEN 'A' || coalesce(body->>'ns_adjust', '') || '|'
                || coalesce(body->>'ew_adjust', '')
            WHEN body->>'kind' = 'weighted' THEN 'W' || coalesce(body->>'weights', '') || '|'
                || coalesce(body->>'ew_weights', '')
            ELSE 'N' END) STORED,
        ADD COLUMN ns_id text GENERATED ALWAYS AS
            (club || '/' || section || (body->>'ns_pair') || coalesce(body->>'ns_field', '')) STORED,
        ADD COLUMN ew_id text GENERATED ALWAYS AS
            (club || '/' || section || (body->>'ew_pair') || coalesce(body->>'ew_field', '')) STORED;
    CREATE INDEX slots_by_board ON slots (sim, board) INCLUDE (outcome);
    CREATE TABLE national_dirty (  -- a board whose outcomes a push changed: appended, never updated (no lock)
        id bigserial PRIMARY KEY,
        sim text NOT NULL,
        board integer NOT NULL
    );
    CREATE INDEX national_dirty_sim ON national_dirty (sim, id);
    CREATE FUNCTION national_dirty_mark() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF NEW.outcome IS NOT NULL THEN
                INSERT INTO national_dirty (sim, board) VALUES (NEW.sim, NEW.board);
            END IF;
        ELSIF TG_OP = 'DELETE' THEN
            IF OLD.outcome IS NOT NULL THEN
                INSERT INTO national_dirty (sim, board) VALUES (OLD.sim, OLD.board);
            END IF;
        ELSIF OLD.outcome IS DISTINCT FROM NEW.outcome THEN
            INSERT INTO national_dirty (sim, board) VALUES (NEW.sim, NEW.board);
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER slots_national AFTER INSERT OR UPDATE OR DELETE ON slots
        FOR EACH ROW EXECUTE FUNCTION national_dirty_mark();
    CREATE TABLE national_boards (
        sim text NOT NULL REFERENCES sims ON DELETE CASCADE,
        board integer NOT NULL,
        entries integer NOT NULL,  -- its counting results, not-played ones included: E is the most of any board
        PRIMARY KEY (sim, board)
    );
    CREATE TABLE national_figures (  -- what each side of each distinct outcome on a board scores in the field
        sim text NOT NULL,
        board integer NOT NULL,
        direction text NOT NULL,
        outcome text NOT NULL,
        artificial boolean NOT NULL,
        num numeric NOT NULL,  -- real: a = (MP1 + 1) / compared, the side's MPs being a E - 1 at the field's E;
        den numeric NOT NULL,  -- artificial: its share of the top, the MPs being 2 (E - 1) share
        average text,  -- A+, A or A- for an average (Law 12C2(c) may revise it)
        PRIMARY KEY (sim, board, direction, outcome),
        FOREIGN KEY (sim, board) REFERENCES national_boards ON DELETE CASCADE
    );
    INSERT INTO national_dirty (sim, board) SELECT DISTINCT sim, board FROM slots WHERE outcome IS NOT NULL;
    UPDATE scores SET generation = generation + 1;
    """,
    # 4: the scoring worker keeps the sim's sides in memory (tenace.hub.scorer): each slot a push changed, each
    # penalty and the release are queued for it (a penalty's or the release's row names no slot: board 0), which is
    # also how it knows there is work, so a push no longer updates `scores` (every push of a sim updating one row
    # serialised them, and failed the pass that read it); each pass leaves a token (the worker's own, or another's:
    # read all again) and a short live message (the head of the ranking and each club's results counted)
    """
    CREATE TABLE slot_changes (  -- appended by the push's transaction, taken off by the pass that reads them
        id bigserial PRIMARY KEY,
        sim text NOT NULL,
        club text NOT NULL,
        section text NOT NULL,
        table_no integer NOT NULL,
        round integer NOT NULL,
        board integer NOT NULL,
        -- the slot as the change left it: the pass reads the queue alone (joined with the slots, the planner's
        -- guess of a few rows made it a loop over the whole field per change under load)
        ns_id text,
        ew_id text,
        outcome text
    );
    CREATE INDEX slot_changes_sim ON slot_changes (sim);
    DROP TRIGGER slots_national ON slots;
    DROP FUNCTION national_dirty_mark();
    DROP TABLE national_dirty;
    CREATE FUNCTION slot_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN  -- a slot is never deleted (nothing counts there: its state is 'none'), only inserted and updated
        IF TG_OP = 'INSERT' OR OLD.outcome IS DISTINCT FROM NEW.outcome OR OLD.ns_id IS DISTINCT FROM NEW.ns_id
                OR OLD.ew_id IS DISTINCT FROM NEW.ew_id THEN
            INSERT INTO slot_changes (sim, club, section, table_no, round, board, ns_id, ew_id, outcome)
                VALUES (NEW.sim, NEW.club, NEW.section, NEW.table_no, NEW.round, NEW.board, NEW.ns_id, NEW.ew_id,
                        NEW.outcome);
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER slots_changed AFTER INSERT OR UPDATE ON slots FOR EACH ROW EXECUTE FUNCTION slot_changed();
    CREATE FUNCTION penalty_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO slot_changes (sim, club, section, table_no, round, board) VALUES (NEW.sim, NEW.club, '', 0, 0, 0);
        RETURN NULL;
    END $$;
    CREATE TRIGGER penalties_changed AFTER INSERT OR UPDATE ON penalties FOR EACH ROW
        EXECUTE FUNCTION penalty_changed();
    ALTER TABLE scores DROP COLUMN generation, ADD COLUMN live jsonb, ADD COLUMN token text;
    -- the ranking (megabytes at a thousand clubs, written by every pass) kept uncompressed: compressing it cost
    -- PostgreSQL more than storing it
    ALTER TABLE scores ALTER COLUMN field SET STORAGE EXTERNAL, ALTER COLUMN cards SET STORAGE EXTERNAL;
    COMMENT ON COLUMN scores.scored IS 'the last change (slot_changes.id) the scores were made with';
    INSERT INTO slot_changes (sim, club, section, table_no, round, board) SELECT sim, '', '', 0, 0, 0 FROM scores;
    """,
    # 5: the pass whose whole ranking `field` holds (stored apart from the live message, and less often while pushes
    # keep coming: a worker stopped in between is caught up by the next; an older one never overwrites a newer one)
    """
    ALTER TABLE scores ADD COLUMN field_generation bigint;
    """,
    # 6: a slot's outcome written by the push that left it (tenace.protocol.wire.outcome_key: the one codec,
    # tenace.scoring.codec, where this column's CASE was a copy of it), the values already there kept; a slot whose
    # outcome no pass can read is quarantined: left out of the scoring, named here for the organiser
    """
    ALTER TABLE slots ALTER COLUMN outcome DROP EXPRESSION;
    CREATE TABLE quarantine (
        sim text NOT NULL REFERENCES sims ON DELETE CASCADE,
        club text NOT NULL,
        section text NOT NULL,
        table_no integer NOT NULL,
        round integer NOT NULL,
        board integer NOT NULL,
        outcome text NOT NULL,
        reason text NOT NULL,
        PRIMARY KEY (sim, club, section, table_no, round, board)
    );
    """,
    # 7: refusals counted per client (the club, else its address), status and minute: a flood adds to a count, not a
    # row per refused push (tenace.hub.ingest.log_refusal)
    """
    ALTER TABLE refusals ADD COLUMN who text, ADD COLUMN minute timestamptz,
        ADD COLUMN count integer NOT NULL DEFAULT 1;
    UPDATE refusals SET minute = date_trunc('minute', at), who = CASE WHEN club IS NOT NULL
        THEN 'club:' || coalesce(sim, '') || '/' || club ELSE 'address:' || coalesce(address, '?') END;
    UPDATE refusals r SET count = g.n FROM (SELECT max(id) AS id, count(*) AS n FROM refusals
        GROUP BY who, minute, status) g WHERE r.id = g.id;
    DELETE FROM refusals WHERE id NOT IN (SELECT max(id) FROM refusals GROUP BY who, minute, status);
    ALTER TABLE refusals ALTER COLUMN who SET NOT NULL, ALTER COLUMN minute SET NOT NULL;
    CREATE UNIQUE INDEX refusals_per_minute ON refusals (who, minute, status);
    """,
)


def migrate(conn: psycopg.Connection[Any]) -> int:
    """Apply the migrations this database has not had yet; the schema's version after."""
    with conn.transaction():
        conn.execute("CREATE TABLE IF NOT EXISTS hub_migrations (version integer PRIMARY KEY, "
                     "applied_at timestamptz NOT NULL DEFAULT now())")
        conn.execute("LOCK TABLE hub_migrations IN EXCLUSIVE MODE")  # two workers starting at once
        row = conn.execute("SELECT coalesce(max(version), 0) FROM hub_migrations").fetchone()
        have = int(row[0]) if row else 0
        for version, sql in enumerate(MIGRATIONS[have:], start=have + 1):
            conn.execute(sql.encode())  # a script of several statements, no parameters
            conn.execute("INSERT INTO hub_migrations (version) VALUES (%s)", (version,))
    return len(MIGRATIONS)
