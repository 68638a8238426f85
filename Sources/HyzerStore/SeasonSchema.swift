import GRDB

/// Issue 37's migration: seasons, one row each (the table is computed, never stored), and
/// `sync_records` made again to take the new kind.
extension Schema {
    static func registerSeasons(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10 seasons") { db in
            try db.execute(
                sql: """
                    CREATE TABLE seasons (
                        id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 16),
                        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                        from_day TEXT NOT NULL CHECK (from_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                        to_day TEXT NOT NULL CHECK (to_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                        rule TEXT NOT NULL CHECK (rule IN ('points', 'best', 'average')),
                        points TEXT,
                        count INTEGER,
                        net INTEGER NOT NULL DEFAULT 0 CHECK (net IN (0, 1)),
                        created_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        deleted_at REAL,
                        CHECK (from_day <= to_day),
                        CHECK ((rule = 'points') = (points IS NOT NULL)),
                        CHECK ((rule = 'points') = (count IS NULL))
                    ) WITHOUT ROWID;
                    """)
            // As in v9: the rows step aside while `sync_records` is made again with the
            // wider CHECK under its own name, so the triggers writing to it still find it.
            try db.execute(
                sql: """
                    CREATE TEMP TABLE sync_records_v10 AS SELECT kind, record_id, version, pending FROM sync_records;
                    DROP TABLE sync_records;
                    CREATE TABLE sync_records (
                        kind TEXT NOT NULL CHECK (kind IN ('course', 'player', 'round', 'scoreEvent', 'event', 'season')),
                        record_id BLOB NOT NULL,
                        version BLOB NOT NULL CHECK (length(version) = 16),
                        pending INTEGER NOT NULL DEFAULT 1 CHECK (pending IN (0, 1)),
                        PRIMARY KEY (kind, record_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX sync_records_pending ON sync_records(kind) WHERE pending = 1;
                    INSERT INTO sync_records (kind, record_id, version, pending)
                        SELECT kind, record_id, version, pending FROM temp.sync_records_v10;
                    DROP TABLE temp.sync_records_v10;
                    """)
            for op in ["INSERT", "UPDATE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER sync_seasons_\(op.lowercased()) AFTER \(op) ON seasons
                        BEGIN
                            INSERT INTO sync_records (kind, record_id, version, pending)
                            VALUES ('season', NEW.id, randomblob(16), 1)
                            ON CONFLICT (kind, record_id) DO UPDATE SET version = excluded.version, pending = 1;
                        END;
                        """)
            }
        }
    }
}
