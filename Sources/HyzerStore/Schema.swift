import GRDB

/// Append-only, named migrations. Never edit a shipped migration: add a new one.
///
/// Ids are 16-byte blobs (GRDB's UUID encoding) and times are Unix seconds (REAL): the
/// 5-year projection (NFR21) is tens of thousands of events and the SD card is small.
enum Schema {
    static var domainMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration(
            "v1 meta",
            sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                """)

        // A8: holes refer to their course by a flat foreign key.
        migrator.registerMigration(
            "v1 courses and holes",
            sql: """
                CREATE TABLE courses (
                    id BLOB PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    updated_at REAL NOT NULL
                );
                CREATE TABLE holes (
                    course_id BLOB NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 18),
                    par INTEGER NOT NULL CHECK (par BETWEEN 2 AND 6),
                    PRIMARY KEY (course_id, number)
                ) WITHOUT ROWID;
                """)

        migrator.registerMigration(
            "v1 players",
            sql: """
                CREATE TABLE players (
                    id BLOB PRIMARY KEY NOT NULL,
                    display_name TEXT NOT NULL CHECK (length(trim(display_name)) > 0),
                    aliases TEXT NOT NULL DEFAULT '[]',
                    updated_at REAL NOT NULL
                );
                """)

        migrator.registerMigration("v1 rounds") { db in
            try db.execute(
                sql: """
                    CREATE TABLE rounds (
                        id BLOB PRIMARY KEY NOT NULL,
                        course_id BLOB NOT NULL REFERENCES courses(id),
                        organizer_id BLOB NOT NULL,
                        status TEXT NOT NULL
                            CHECK (status IN ('setup', 'active', 'awaitingFinalization', 'completed')),
                        created_at REAL NOT NULL,
                        started_at REAL,
                        completed_at REAL,
                        updated_at REAL NOT NULL
                    );
                    CREATE INDEX rounds_by_status ON rounds(status, created_at);
                    CREATE TABLE round_participants (
                        round_id BLOB NOT NULL REFERENCES rounds(id),
                        participant_id BLOB NOT NULL,
                        ordinal INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('registered', 'guest')),
                        PRIMARY KEY (round_id, participant_id)
                    ) WITHOUT ROWID;
                    """)
            // FR13 in the data layer itself: no writer, however buggy, changes the
            // participant list of a round that has left setup.
            // This shipped migration builds its trigger names from a fixed list of three
            // literals; it stays exactly as applied on devices (never edit a shipped
            // migration), and no value from outside ever reaches this SQL.
            for op in ["INSERT", "DELETE", "UPDATE"] {
                let row = op == "DELETE" ? "OLD" : "NEW"
                try db.execute(
                    sql: """
                        CREATE TRIGGER round_participants_locked_\(op.lowercased())
                        BEFORE \(op) ON round_participants
                        WHEN (SELECT status FROM rounds WHERE id = \(row).round_id) IS NOT 'setup'
                        BEGIN
                            SELECT RAISE(ABORT, 'round participants are locked once the round has started (FR13)');
                        END;
                        """)
            }
        }

        // `seq` is local arrival order, for sync cursors and audits only: the value
        // that counts comes from the supersession graph (A7), never from order.
        // `supersedes` packs the superseded ids as consecutive 16-byte blobs.
        migrator.registerMigration(
            "v1 score events",
            sql: """
                CREATE TABLE score_events (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id BLOB NOT NULL UNIQUE,
                    round_id BLOB NOT NULL REFERENCES rounds(id),
                    participant_id BLOB NOT NULL,
                    hole INTEGER NOT NULL CHECK (hole BETWEEN 1 AND 18),
                    strokes INTEGER NOT NULL CHECK (strokes BETWEEN 1 AND 10),
                    supersedes BLOB NOT NULL DEFAULT x'' CHECK (length(supersedes) % 16 = 0),
                    reported_by BLOB NOT NULL,
                    device_id TEXT NOT NULL CHECK (length(device_id) > 0),
                    created_at REAL NOT NULL,
                    is_resolution INTEGER NOT NULL DEFAULT 0 CHECK (is_resolution IN (0, 1))
                );
                CREATE INDEX score_events_by_cell ON score_events(round_id, participant_id, hole);

                -- NFR19 by construction: score events are never mutated or deleted.
                CREATE TRIGGER score_events_append_only_update BEFORE UPDATE ON score_events
                BEGIN
                    SELECT RAISE(ABORT, 'score_events is append-only: record a correction that supersedes the event instead (NFR19)');
                END;
                CREATE TRIGGER score_events_append_only_delete BEFORE DELETE ON score_events
                BEGIN
                    SELECT RAISE(ABORT, 'score_events is append-only: score events are never deleted (NFR19)');
                END;
                -- Scores only for rounds that are being played.
                CREATE TRIGGER score_events_round_open BEFORE INSERT ON score_events
                WHEN (SELECT status FROM rounds WHERE id = NEW.round_id) NOT IN ('active', 'awaitingFinalization')
                BEGIN
                    SELECT RAISE(ABORT, 'score events are accepted only for active rounds');
                END;
                """)
        registerSyncDomainMigrations(&migrator)
        registerCompactEventTracking(&migrator)
        registerHistoryIndex(&migrator)
        registerCourseLifetimes(&migrator)
        // Issue 14: a score carries the name of the device it was entered on, so every
        // device credits it alike ("at the kiosk", "from Nate's phone"). Nullable: older
        // events, and older devices' events, have none.
        migrator.registerMigration(
            "v6 score event device names",
            sql: "ALTER TABLE score_events ADD COLUMN device_name TEXT CHECK (device_name IS NULL OR length(device_name) > 0)")
        registerUndo(&migrator)
        registerRetractions(&migrator)
        registerLeagueNights(&migrator)
        registerSeasons(&migrator)
        registerNetNights(&migrator)
        registerScoreInput(&migrator)
        return migrator
    }

    /// The operational store (sync.sqlite). Reconstructible from the server (A3), so a
    /// damaged one is simply recreated.
    static var operationalMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // A1: four states; inFlight is marked before any await so a re-entrant push
        // never sends a record twice.
        migrator.registerMigration(
            "v1 outbox",
            sql: """
                CREATE TABLE outbox (
                    record_id BLOB PRIMARY KEY NOT NULL,
                    record_type TEXT NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'inFlight', 'synced', 'failed')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    enqueued_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                );
                CREATE INDEX outbox_by_status ON outbox(status, enqueued_at);
                CREATE TABLE sync_state (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                """)
        registerSyncOperationalMigrations(&migrator)
        return migrator
    }
}

extension DatabaseMigrator {
    /// A migration that is one fixed SQL script, as most of the shipped ones are: the same
    /// `execute(sql:)` inside the same migration, written once.
    mutating func registerMigration(_ identifier: String, sql: String) {
        registerMigration(identifier) { db in try db.execute(sql: sql) }
    }
}
