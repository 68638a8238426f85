import GRDB

/// Sync bookkeeping migrations (issue 5), appended after the v1 ones.
extension Schema {
    /// `sync_records` is the durable "not yet on the server" set, kept in the *domain*
    /// database so it commits atomically with the write it describes. Triggers fill it, so
    /// every writer (the kiosk, `hyzer score` in another process, an import) is covered
    /// without having to remember to enqueue anything.
    ///
    /// - `version` is the change id of the row's current content: the event id for score
    ///   events (immutable), a fresh random UUID on every change of a course, player or
    ///   round (their last-writer-wins idempotency key).
    /// - `pending = 1` until the server acknowledged exactly that version. An ack only
    ///   clears the flag when the version still matches, so a change made while the
    ///   previous version was in flight is never lost.
    ///
    /// Pulled records are written with the remote version and `pending = 0` in the same
    /// transaction, which overrides what the triggers wrote, so nothing echoes back.
    static func registerSyncDomainMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2 sync records") { db in
            try db.execute(
                sql: """
                    CREATE TABLE sync_records (
                        kind TEXT NOT NULL CHECK (kind IN ('course', 'player', 'round', 'scoreEvent')),
                        record_id BLOB NOT NULL,
                        version BLOB NOT NULL CHECK (length(version) = 16),
                        pending INTEGER NOT NULL DEFAULT 1 CHECK (pending IN (0, 1)),
                        PRIMARY KEY (kind, record_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX sync_records_pending ON sync_records(kind) WHERE pending = 1;

                    -- Everything written before sync existed is "not known synced" (A3).
                    INSERT INTO sync_records (kind, record_id, version, pending)
                        SELECT 'course', id, randomblob(16), 1 FROM courses;
                    INSERT INTO sync_records (kind, record_id, version, pending)
                        SELECT 'player', id, randomblob(16), 1 FROM players;
                    INSERT INTO sync_records (kind, record_id, version, pending)
                        SELECT 'round', id, randomblob(16), 1 FROM rounds;
                    INSERT INTO sync_records (kind, record_id, version, pending)
                        SELECT 'scoreEvent', id, id, 1 FROM score_events;

                    CREATE TRIGGER sync_score_event_inserted AFTER INSERT ON score_events
                    BEGIN
                        INSERT INTO sync_records (kind, record_id, version, pending)
                        VALUES ('scoreEvent', NEW.id, NEW.id, 1)
                        ON CONFLICT (kind, record_id) DO NOTHING;
                    END;
                    """)
            // A change of the row itself or of its child rows is a new version of the record.
            // This shipped migration interpolates table names from the fixed list below
            // into its CREATE TRIGGERs; it stays exactly as applied on devices (never edit
            // a shipped migration), and no value from outside ever reaches this SQL.
            let sources: [(table: String, kind: String, key: String, ops: [String])] = [
                ("courses", "course", "id", ["INSERT", "UPDATE"]),
                ("holes", "course", "course_id", ["INSERT", "UPDATE", "DELETE"]),
                ("players", "player", "id", ["INSERT", "UPDATE"]),
                ("rounds", "round", "id", ["INSERT", "UPDATE"]),
                ("round_participants", "round", "round_id", ["INSERT", "UPDATE", "DELETE"]),
            ]
            for source in sources {
                for op in source.ops {
                    let row = op == "DELETE" ? "OLD" : "NEW"
                    try db.execute(
                        sql: """
                            CREATE TRIGGER sync_\(source.table)_\(op.lowercased()) AFTER \(op) ON \(source.table)
                            BEGIN
                                INSERT INTO sync_records (kind, record_id, version, pending)
                                VALUES ('\(source.kind)', \(row).\(source.key), randomblob(16), 1)
                                ON CONFLICT (kind, record_id) DO UPDATE SET version = excluded.version, pending = 1;
                            END;
                            """)
                }
            }
            // A deleted course leaves no record to push (deletions stay local for now).
            try db.execute(
                sql: """
                    CREATE TRIGGER sync_courses_delete AFTER DELETE ON courses
                    BEGIN
                        DELETE FROM sync_records WHERE kind = 'course' AND record_id = OLD.id;
                    END;
                    """)
        }
    }

    /// v3: score events leave `sync_records`. A score event is immutable, so its version
    /// is its id and "pending" is all there is to know; a `sync_records` row for each
    /// (kind text, id, the id again as version, a primary-key index and a partial index)
    /// cost ~90 bytes per event, a third of the 5-year store (NFR21). The pending ones are
    /// now the seqs in `sync_pending_events`, a rowid table of ~7 bytes per pending event,
    /// and an acknowledged event costs nothing. The guarantees are the same: the trigger
    /// marks every inserted event pending in the inserting transaction, whoever inserts.
    static func registerCompactEventTracking(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v3 pending score events as seqs",
            sql: """
                CREATE TABLE sync_pending_events (event_seq INTEGER PRIMARY KEY NOT NULL);
                INSERT INTO sync_pending_events (event_seq)
                    SELECT e.seq FROM score_events e
                    JOIN sync_records s ON s.kind = 'scoreEvent' AND s.record_id = e.id
                    WHERE s.pending = 1;
                DELETE FROM sync_records WHERE kind = 'scoreEvent';
                DROP TRIGGER sync_score_event_inserted;
                CREATE TRIGGER sync_score_event_pending AFTER INSERT ON score_events
                BEGIN
                    INSERT INTO sync_pending_events (event_seq) VALUES (NEW.seq);
                END;
                """)
    }

    /// The outbox keeps the exact payload of the version it pushes, so a retry sends the
    /// same bytes, and the order records must go in (courses, players, rounds, events).
    static func registerSyncOperationalMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v2 outbox payloads",
            sql: """
                ALTER TABLE outbox ADD COLUMN version BLOB;
                ALTER TABLE outbox ADD COLUMN payload BLOB;
                ALTER TABLE outbox ADD COLUMN kind_order INTEGER NOT NULL DEFAULT 3;
                ALTER TABLE outbox ADD COLUMN local_order INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE outbox ADD COLUMN server_seq INTEGER;
                CREATE INDEX outbox_claim ON outbox(status, kind_order, local_order);
                """)
    }

    /// `sync_records` made again with its `kind` CHECK widened to `kinds` (v9, v10). SQLite
    /// cannot widen a CHECK in place, and renaming a rebuilt table would make SQLite re-check
    /// every trigger that writes to `sync_records` while it does not exist: the rows step
    /// aside, the table is made again under its own name, and they come back. The triggers
    /// refer to it by name and so go on writing to the new one. The SQL is the shipped
    /// migrations' to the byte (SchemaFixtureTests holds it).
    static func rebuildSyncRecords(_ db: Database, kinds: [String], version: Int) throws {
        let aside = "sync_records_v\(version)"
        try db.execute(
            sql: """
                CREATE TEMP TABLE \(aside) AS SELECT kind, record_id, version, pending FROM sync_records;
                DROP TABLE sync_records;
                CREATE TABLE sync_records (
                    kind TEXT NOT NULL CHECK (kind IN (\(kinds.map { "'\($0)'" }.joined(separator: ", ")))),
                    record_id BLOB NOT NULL,
                    version BLOB NOT NULL CHECK (length(version) = 16),
                    pending INTEGER NOT NULL DEFAULT 1 CHECK (pending IN (0, 1)),
                    PRIMARY KEY (kind, record_id)
                ) WITHOUT ROWID;
                CREATE INDEX sync_records_pending ON sync_records(kind) WHERE pending = 1;
                INSERT INTO sync_records (kind, record_id, version, pending)
                    SELECT kind, record_id, version, pending FROM temp.\(aside);
                DROP TABLE temp.\(aside);
                """)
    }

    /// A new or changed row of `table` is a new version of a `kind` record to push, whoever
    /// writes it (v9's nights, v10's seasons).
    static func createSyncTriggers(_ db: Database, table: String, kind: String) throws {
        for op in ["INSERT", "UPDATE"] {
            try db.execute(
                sql: """
                    CREATE TRIGGER sync_\(table)_\(op.lowercased()) AFTER \(op) ON \(table)
                    BEGIN
                        INSERT INTO sync_records (kind, record_id, version, pending)
                        VALUES ('\(kind)', NEW.id, randomblob(16), 1)
                        ON CONFLICT (kind, record_id) DO UPDATE SET version = excluded.version, pending = 1;
                    END;
                    """)
        }
    }
}
