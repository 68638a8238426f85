import GRDB

/// Issue 14's migration: courses that can be deleted everywhere, any hole count from 1 to
/// 36 with pars 2–7, and rounds that keep the pars they started with.
extension Schema {
    static func registerCourseLifetimes(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5 course tombstones, wider courses and round pars") { db in
            // A deleted course keeps its row: played rounds still name it (FR62), and the
            // tombstone is what sync carries to every other device. Its holes stay too, so
            // a round from an older device (no pars of its own) still has pars to use.
            try db.execute(sql: "ALTER TABLE courses ADD COLUMN deleted_at REAL")

            // SQLite cannot widen a CHECK in place: each table is rebuilt under its own
            // name, then the triggers that went with the old table are created again, the
            // same text as the shipped ones (the schema fixture holds them equal).
            try rebuild(
                "holes",
                as: """
                    CREATE TABLE holes_v5 (
                        course_id BLOB NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                        number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 36),
                        par INTEGER NOT NULL CHECK (par BETWEEN 2 AND 7),
                        PRIMARY KEY (course_id, number)
                    ) WITHOUT ROWID
                    """,
                columns: "course_id, number, par", db)
            for op in ["INSERT", "UPDATE", "DELETE"] {
                let row = op == "DELETE" ? "OLD" : "NEW"
                try db.execute(
                    sql: """
                        CREATE TRIGGER sync_holes_\(op.lowercased()) AFTER \(op) ON holes
                        BEGIN
                            INSERT INTO sync_records (kind, record_id, version, pending)
                            VALUES ('course', \(row).course_id, randomblob(16), 1)
                            ON CONFLICT (kind, record_id) DO UPDATE SET version = excluded.version, pending = 1;
                        END
                        """)
            }

            // The event sequence must not restart below an event already synced or
            // pending: the new table continues from the old one's counter.
            let lastSeq = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'score_events'") ?? 0
            try rebuild(
                "score_events",
                as: """
                    CREATE TABLE score_events_v5 (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id BLOB NOT NULL UNIQUE,
                        round_id BLOB NOT NULL REFERENCES rounds(id),
                        participant_id BLOB NOT NULL,
                        hole INTEGER NOT NULL CHECK (hole BETWEEN 1 AND 36),
                        strokes INTEGER NOT NULL CHECK (strokes BETWEEN 1 AND 10),
                        supersedes BLOB NOT NULL DEFAULT x'' CHECK (length(supersedes) % 16 = 0),
                        reported_by BLOB NOT NULL,
                        device_id TEXT NOT NULL CHECK (length(device_id) > 0),
                        created_at REAL NOT NULL,
                        is_resolution INTEGER NOT NULL DEFAULT 0 CHECK (is_resolution IN (0, 1))
                    )
                    """,
                columns:
                    "seq, id, round_id, participant_id, hole, strokes, supersedes, reported_by, device_id, created_at, is_resolution",
                db)
            try db.execute(
                sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'score_events'", arguments: [lastSeq])
            try db.execute(
                sql: """
                    CREATE INDEX score_events_by_cell ON score_events(round_id, participant_id, hole);
                    CREATE TRIGGER score_events_append_only_update BEFORE UPDATE ON score_events
                    BEGIN
                        SELECT RAISE(ABORT, 'score_events is append-only: record a correction that supersedes the event instead (NFR19)');
                    END;
                    CREATE TRIGGER score_events_append_only_delete BEFORE DELETE ON score_events
                    BEGIN
                        SELECT RAISE(ABORT, 'score_events is append-only: score events are never deleted (NFR19)');
                    END;
                    CREATE TRIGGER score_events_round_open BEFORE INSERT ON score_events
                    WHEN (SELECT status FROM rounds WHERE id = NEW.round_id) NOT IN ('active', 'awaitingFinalization')
                    BEGIN
                        SELECT RAISE(ABORT, 'score events are accepted only for active rounds');
                    END;
                    CREATE TRIGGER sync_score_event_pending AFTER INSERT ON score_events
                    BEGIN
                        INSERT INTO sync_pending_events (event_seq) VALUES (NEW.seq);
                    END;
                    CREATE TRIGGER scored_rounds_first_event AFTER INSERT ON score_events
                    WHEN NOT EXISTS (SELECT 1 FROM scored_rounds WHERE round_id = NEW.round_id)
                    BEGIN
                        INSERT INTO scored_rounds (round_id) VALUES (NEW.round_id);
                    END;
                    """)

            // Each existing round takes its course's pars as they are now: the best
            // record there is of what it was played to. This is derived, not a change
            // anyone made, so the rounds' sync versions are put back as they were (the
            // update trigger would otherwise push every round of five years again).
            try db.execute(
                sql: """
                    ALTER TABLE rounds ADD COLUMN pars TEXT NOT NULL DEFAULT '';
                    CREATE TEMP TABLE v5_round_versions AS
                        SELECT record_id, version, pending FROM sync_records WHERE kind = 'round';
                    """)
            let holes = try Row.fetchAll(db, sql: "SELECT course_id, par FROM holes ORDER BY course_id, number")
            var pars: [DatabaseValue: [Int]] = [:]
            for hole in holes { pars[hole["course_id"], default: []].append(hole["par"]) }
            for (course, list) in pars {
                try db.execute(
                    sql: "UPDATE rounds SET pars = ? WHERE course_id = ?", arguments: [Rows.parsText(list), course])
            }
            try db.execute(
                sql: """
                    UPDATE sync_records
                    SET version = (SELECT k.version FROM v5_round_versions k WHERE k.record_id = sync_records.record_id),
                        pending = (SELECT k.pending FROM v5_round_versions k WHERE k.record_id = sync_records.record_id)
                    WHERE kind = 'round' AND record_id IN (SELECT record_id FROM v5_round_versions);
                    DROP TABLE v5_round_versions;
                    """)
        }
    }

    /// Replaces `table` by one made with `create` (named `<table>_v5`), keeping its rows.
    /// The old table's indexes and triggers go with it; the caller makes them again.
    private static func rebuild(_ table: String, as create: String, columns: String, _ db: Database) throws {
        try db.execute(
            sql: """
                \(create);
                INSERT INTO \(table)_v5 (\(columns)) SELECT \(columns) FROM \(table);
                DROP TABLE \(table);
                ALTER TABLE \(table)_v5 RENAME TO \(table);
                """)
    }
}
