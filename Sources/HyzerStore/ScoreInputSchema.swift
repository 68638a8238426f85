import GRDB

extension Schema {
    /// Issue 38: how a score was entered, when not by hand ("voice": spoken at a phone and
    /// confirmed). Nullable, as `device_name` (v6): every event before it, and an older
    /// device's, has none. The append-only triggers are untouched (adding a column fires none).
    static func registerScoreInput(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(
            "v12 score event input",
            sql: "ALTER TABLE score_events ADD COLUMN input TEXT CHECK (input IS NULL OR length(input) BETWEEN 1 AND 20)")
    }
}
