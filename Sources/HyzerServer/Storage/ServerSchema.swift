import Foundation
import GRDB
import HyzerKit

/// The server database's schema, as named migrations.
///
/// Append-only: a migration that has shipped is never edited (servers in the field have
/// already run it and would never see the change); a change to the schema is a new
/// migration at the end of the list.
enum ServerSchema {
    static func migrator(clock: any HyzerClock) -> DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1 server") { db in
            try db.execute(
                sql: """
                    CREATE TABLE server_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE groups (
                        id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                        created_at REAL NOT NULL
                    );
                    CREATE TABLE credentials (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        role TEXT NOT NULL CHECK (role IN ('admin', 'device')),
                        device_id TEXT,
                        created_at REAL NOT NULL,
                        revoked_at REAL
                    ) WITHOUT ROWID;
                    CREATE INDEX credentials_by_device ON credentials(group_id, device_id);
                    CREATE TABLE devices (
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        device_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        enrolled_at REAL NOT NULL,
                        revoked_at REAL,
                        PRIMARY KEY (group_id, device_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        kind TEXT NOT NULL,
                        record_id BLOB NOT NULL,
                        version BLOB NOT NULL,
                        payload BLOB NOT NULL,
                        pushed_by TEXT NOT NULL,
                        received_at REAL NOT NULL,
                        UNIQUE (group_id, kind, record_id, version)
                    );
                    CREATE INDEX changes_feed ON changes(group_id, seq);
                    CREATE TABLE current_records (
                        group_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        record_id BLOB NOT NULL,
                        seq INTEGER NOT NULL REFERENCES changes(seq),
                        lifecycle INTEGER NOT NULL,
                        updated_at REAL NOT NULL,
                        version BLOB NOT NULL,
                        PRIMARY KEY (group_id, kind, record_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE events (
                        group_id TEXT NOT NULL,
                        event_id BLOB NOT NULL,
                        round_id BLOB NOT NULL,
                        participant_id BLOB NOT NULL,
                        hole INTEGER NOT NULL,
                        seq INTEGER NOT NULL REFERENCES changes(seq),
                        PRIMARY KEY (group_id, event_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX events_by_cell ON events(group_id, round_id, participant_id, hole);
                    """)
            // The creation time comes from the injected clock, so a test can pin it.
            try db.execute(
                sql: "INSERT INTO server_meta (key, value) VALUES ('epoch', ?), ('created_at', ?)",
                arguments: [UUID().uuidString.lowercased(), ISO8601Time.string(from: clock.date)])
        }
        // The feed is what every device replicates by seq: a row changed or removed after
        // it was served would leave each device's copy silently different from the
        // server's. Nothing in the server updates or deletes it (a restore replaces the
        // whole file, a backup copies it), so the schema refuses it outright, as the
        // device's `score_events` does. A correction is a new event that supersedes.
        m.registerMigration("v2 server: append-only feed") { db in
            let refusals = [
                ("changes", "UPDATE", "the feed is never rewritten; push a new version instead"),
                ("changes", "DELETE", "the feed is never deleted from"),
                ("events", "UPDATE", "record a correction that supersedes the event instead"),
                ("events", "DELETE", "score events are never deleted"),
            ]
            for (table, operation, reason) in refusals {
                try db.execute(sql: appendOnlyTrigger(table, operation, because: reason))
            }
        }
        // RFC 8628's device authorization (joining from the kiosk's screen): both codes
        // are stored hashed, like tokens. A row is spent once `redeemed_at` is set.
        m.registerMigration("v3 server: device authorizations") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device_authorizations (
                        device_code_hash BLOB PRIMARY KEY NOT NULL,
                        user_code_hash BLOB NOT NULL UNIQUE,
                        device_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        poll_interval REAL NOT NULL,
                        polled_at REAL,
                        group_id TEXT REFERENCES groups(id),
                        approved_at REAL,
                        denied_at REAL,
                        redeemed_at REAL
                    ) WITHOUT ROWID;
                    CREATE INDEX device_authorizations_by_expiry ON device_authorizations(expires_at);
                    """)
        }
        // The live board's links: a view token reads one group's standings and nothing
        // else. A table of its own rather than a third role in `credentials`, so that no
        // sync route, which all look tokens up there, can ever accept one.
        m.registerMigration("v4 server: view tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE view_tokens (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        created_at REAL NOT NULL,
                        revoked_at REAL
                    ) WITHOUT ROWID;
                    CREATE INDEX view_tokens_by_group ON view_tokens(group_id);
                    """)
        }
        // Phones joining with a QR code: a short-lived, single-use invite, stored hashed
        // like every code. `redeemed_at` set means spent.
        m.registerMigration("v5 server: invites") { db in
            try db.execute(
                sql: """
                    CREATE TABLE invites (
                        code_hash BLOB PRIMARY KEY NOT NULL,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        created_by TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        redeemed_at REAL,
                        redeemed_by TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX invites_by_expiry ON invites(expires_at);
                    """)
        }
        // A finished round's summary page (`/s/TOKEN`), opened from the QR code on the
        // kiosk's summary card: a read-only link to one round, stored hashed like every token.
        m.registerMigration("v6 server: summary links") { db in
            try db.execute(
                sql: """
                    CREATE TABLE summary_links (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        round_id BLOB NOT NULL,
                        created_at REAL NOT NULL,
                        revoked_at REAL
                    ) WITHOUT ROWID;
                    CREATE INDEX summary_links_by_group ON summary_links(group_id);
                    """)
        }
        // "Which player am I?": the registered player (a `player` record's id, 16 bytes as
        // `record_id`) a device plays as, claimed when a phone joins with an invite. NULL
        // for no claim. One active device per player of a group: the redeem checks it in
        // the single writer; the partial index is the backstop, and leaves revoked devices
        // (and devices that claimed nobody) out, so a freed player can be claimed again.
        m.registerMigration("v7 server: player claims") { db in
            try db.execute(
                sql: """
                    ALTER TABLE devices ADD COLUMN player_id BLOB;
                    CREATE UNIQUE INDEX devices_one_per_player ON devices(group_id, player_id)
                        WHERE revoked_at IS NULL AND player_id IS NOT NULL;
                    """)
        }
        // A name typed on a phone for the kiosk (`/n/CODE`): a short-lived code for one name,
        // stored hashed like every code; `answered_at` set means spent, `name` is the answer.
        m.registerMigration("v8 server: name requests") { db in
            try db.execute(
                sql: """
                    CREATE TABLE name_requests (
                        code_hash BLOB PRIMARY KEY NOT NULL,
                        group_id TEXT NOT NULL REFERENCES groups(id),
                        created_by TEXT NOT NULL,
                        label TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL,
                        answered_at REAL,
                        name TEXT
                    ) WITHOUT ROWID;
                    CREATE INDEX name_requests_by_expiry ON name_requests(expires_at);
                    """)
        }
        // Issue 35: how long after its finish a group's round can be reopened (seconds).
        m.registerMigration("v9 server: group settings") { db in
            try db.execute(
                sql: "ALTER TABLE groups ADD COLUMN reopen_window REAL NOT NULL DEFAULT 86400 CHECK (reopen_window >= 0)")
        }
        return m
    }

    /// The trigger that refuses `operation` (UPDATE or DELETE) on `table`, saying why. The
    /// shipped "v2 server: append-only feed" wrote four of these out in full; this writes
    /// each one the same, character for character (Tests/Fixtures/server-schema.txt pins
    /// the result). Only that migration's literals above ever reach this SQL.
    private static func appendOnlyTrigger(_ table: String, _ operation: String, because reason: String) -> String {
        """
        CREATE TRIGGER \(table)_append_only_\(operation.lowercased()) BEFORE \(operation) ON \(table)
        BEGIN
            SELECT RAISE(ABORT, '\(table) is append-only: \(reason)');
        END;
        """
    }
}
