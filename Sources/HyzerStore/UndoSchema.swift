import GRDB

/// Issue 35's migration: undo as records. Columns only, and one trigger made again;
/// nothing is rebuilt, and `ALTER TABLE … ADD COLUMN` fires no update trigger, so no
/// record becomes pending for it.
extension Schema {
    static func registerUndo(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v7 undo: generations, removals, corrections and who did them",
            sql: """
                ALTER TABLE rounds ADD COLUMN generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0);
                ALTER TABLE rounds ADD COLUMN actions TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE courses ADD COLUMN generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0);
                ALTER TABLE courses ADD COLUMN action TEXT;
                ALTER TABLE players ADD COLUMN removed_at REAL;
                ALTER TABLE players ADD COLUMN merged_into BLOB CHECK (merged_into IS NULL OR length(merged_into) = 16);
                ALTER TABLE players ADD COLUMN action TEXT;
                ALTER TABLE score_events ADD COLUMN correction TEXT CHECK (correction IS NULL OR length(correction) > 0);

                -- Not an append-only trigger: the same rule, but a correction of a finished
                -- round is a new event made after the finish on purpose.
                DROP TRIGGER score_events_round_open;
                CREATE TRIGGER score_events_round_open BEFORE INSERT ON score_events
                WHEN NEW.correction IS NULL
                    AND (SELECT status FROM rounds WHERE id = NEW.round_id) NOT IN ('active', 'awaitingFinalization')
                BEGIN
                    SELECT RAISE(ABORT, 'score events are accepted only for active rounds');
                END;
                CREATE TRIGGER score_events_correction_started BEFORE INSERT ON score_events
                WHEN NEW.correction IS NOT NULL AND (SELECT status FROM rounds WHERE id = NEW.round_id) IS 'setup'
                BEGIN
                    SELECT RAISE(ABORT, 'a correction is for a round that has started');
                END;

                -- Pull everything again, once: while this device ran the older code it
                -- read reopenings, restores and removals without their new fields and
                -- kept its own copies. Applying a page is idempotent.
                UPDATE meta SET value = '0' WHERE key = 'sync_cursor';
                """)
    }

    /// Issue 35's "Undo" toast: a retraction withdraws a score saved a moment ago (see
    /// `ScoreEvent.retraction`); issue 36: the hole a round's card starts on. Columns with
    /// defaults, so no row changes and nothing becomes pending; a trigger holds a retraction
    /// to its shape, as validation does.
    static func registerRetractions(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v8 retractions and start holes",
            sql: """
                ALTER TABLE score_events ADD COLUMN retraction INTEGER NOT NULL DEFAULT 0 CHECK (retraction IN (0, 1));
                ALTER TABLE rounds ADD COLUMN start_hole INTEGER NOT NULL DEFAULT 1 CHECK (start_hole BETWEEN 1 AND 36);
                CREATE TRIGGER score_events_retraction_shape BEFORE INSERT ON score_events
                WHEN NEW.retraction = 1
                    AND (length(NEW.supersedes) = 0 OR NEW.is_resolution OR NEW.correction IS NOT NULL)
                BEGIN
                    SELECT RAISE(ABORT, 'a retraction names what it withdraws, and is neither a resolution nor a correction');
                END;
                """)
    }
}
