import GRDB

/// Issue 36's migration: league nights. An event is one row; its cards' rounds, its
/// closest-to-the-pin holes and its ace pot are small JSON documents read and written
/// with it (a night has at most 26 cards), and `league_event_cards` answers "which night is
/// this round a card of" and holds a round to one night.
extension Schema {
    static func registerLeagueNights(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9 league nights") { db in
            try db.execute(
                sql: """
                    CREATE TABLE league_events (
                        id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 16),
                        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                        course_id BLOB NOT NULL REFERENCES courses(id),
                        day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                        rounds TEXT NOT NULL,
                        skins TEXT NOT NULL CHECK (skins IN ('off', 'field', 'card')),
                        closest_to_pin TEXT NOT NULL DEFAULT '[]',
                        ace_pot TEXT,
                        created_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        discarded_at REAL
                    ) WITHOUT ROWID;
                    CREATE INDEX league_events_by_day ON league_events(day, created_at);

                    -- No reference to rounds: a night pulled before one of its rounds keeps
                    -- the card, and shows it once the round arrives.
                    CREATE TABLE league_event_cards (
                        round_id BLOB PRIMARY KEY NOT NULL CHECK (length(round_id) = 16),
                        event_id BLOB NOT NULL REFERENCES league_events(id) ON DELETE CASCADE,
                        card INTEGER NOT NULL CHECK (card >= 0)
                    ) WITHOUT ROWID;
                    CREATE INDEX league_event_cards_by_event ON league_event_cards(event_id, card);
                    """)
            // `sync_records.kind` gains 'event' (`rebuildSyncRecords` says how, and why so).
            try rebuildSyncRecords(db, kinds: ["course", "player", "round", "scoreEvent", "event"], version: 9)
            // A new or changed night is a new version to push, whoever writes it.
            try createSyncTriggers(db, table: "league_events", kind: "event")
        }
    }
}
