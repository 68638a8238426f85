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
            // As in v9: `sync_records.kind` gains the new kind.
            try rebuildSyncRecords(db, kinds: ["course", "player", "round", "scoreEvent", "event", "season"], version: 10)
            try createSyncTriggers(db, table: "seasons", kind: "season")
        }
    }

    /// Issue 37's second: a league night ranked by net. The column is 0 for every night
    /// there is (adding it fires no trigger, so nothing is pushed again). The cursor goes
    /// back to 0 once, as in v7: a device before protocol 5 was not sent the nights ranked
    /// by net (`SyncRecord.sinceProtocol`) while its cursor moved past them, and now pulls
    /// the feed again to get them (applying a record it holds changes nothing).
    static func registerNetNights(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v11 net league nights",
            sql: """
                ALTER TABLE league_events ADD COLUMN net INTEGER NOT NULL DEFAULT 0 CHECK (net IN (0, 1));
                UPDATE meta SET value = '0' WHERE key = 'sync_cursor';
                """)
    }
}
