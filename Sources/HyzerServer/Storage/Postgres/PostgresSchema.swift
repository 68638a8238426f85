import Foundation

/// The PostgreSQL schema, as named migrations applied in order and recorded in
/// `hyzer_migrations`. Append-only, like the SQLite schema: a migration that has shipped is
/// never edited; a change is a new migration at the end.
///
/// Its first holds what the SQLite schema's first six migrations hold, in one (the two
/// backends are never converted into each other); the later ones carry the name of the
/// SQLite migration they match. With PostgreSQL's types: `uuid` for ids and
/// versions, `bytea` for hashes and the stored statements (kept byte for byte: a retried
/// push is compared against them), `double precision` seconds since 1970 for times.
enum PostgresSchema {
    struct Migration {
        var name: String
        var sql: String

        /// The migration's statements, one by one: postgres-nio sends each query through
        /// the extended protocol, which takes a single statement. Splits at a `;` that
        /// ends a line, except inside a `$$` function body.
        var statements: [String] {
            var statements: [String] = []
            var current = ""
            var inBody = false
            for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("--") { continue }
                current += line + "\n"
                if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
                if !inBody, line.hasSuffix(";") {
                    statements.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                }
            }
            let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if !rest.isEmpty { statements.append(rest) }
            return statements
        }
    }

    static let migrations: [Migration] = [
        Migration(
            name: "v1 server",
            sql: """
                CREATE TABLE server_meta (key text PRIMARY KEY, value text NOT NULL);
                CREATE TABLE groups (
                    id text PRIMARY KEY,
                    name text NOT NULL CHECK (length(btrim(name)) > 0),
                    created_at double precision NOT NULL
                );
                CREATE TABLE credentials (
                    token_hash bytea PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    role text NOT NULL CHECK (role IN ('admin', 'device')),
                    device_id text,
                    created_at double precision NOT NULL,
                    revoked_at double precision
                );
                CREATE INDEX credentials_by_device ON credentials (group_id, device_id);
                CREATE TABLE devices (
                    group_id text NOT NULL REFERENCES groups(id),
                    device_id text NOT NULL,
                    name text NOT NULL,
                    enrolled_at double precision NOT NULL,
                    revoked_at double precision,
                    PRIMARY KEY (group_id, device_id)
                );
                -- One active enrollment per device id on the whole server. SQLite's single
                -- writer makes the check-then-insert safe; two instances need the index.
                CREATE UNIQUE INDEX devices_one_active ON devices (device_id) WHERE revoked_at IS NULL;
                CREATE TABLE changes (
                    seq bigserial PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    kind text NOT NULL,
                    record_id uuid NOT NULL,
                    version uuid NOT NULL,
                    payload bytea NOT NULL,
                    pushed_by text NOT NULL,
                    received_at double precision NOT NULL,
                    UNIQUE (group_id, kind, record_id, version)
                );
                CREATE INDEX changes_feed ON changes (group_id, seq);
                CREATE TABLE current_records (
                    group_id text NOT NULL,
                    kind text NOT NULL,
                    record_id uuid NOT NULL,
                    seq bigint NOT NULL REFERENCES changes(seq),
                    lifecycle integer NOT NULL,
                    updated_at double precision NOT NULL,
                    version uuid NOT NULL,
                    PRIMARY KEY (group_id, kind, record_id)
                );
                CREATE TABLE events (
                    group_id text NOT NULL,
                    event_id uuid NOT NULL,
                    round_id uuid NOT NULL,
                    participant_id uuid NOT NULL,
                    hole integer NOT NULL,
                    seq bigint NOT NULL REFERENCES changes(seq),
                    PRIMARY KEY (group_id, event_id)
                );
                CREATE INDEX events_by_cell ON events (group_id, round_id, participant_id, hole);
                CREATE TABLE device_authorizations (
                    device_code_hash bytea PRIMARY KEY,
                    user_code_hash bytea NOT NULL UNIQUE,
                    device_id text NOT NULL,
                    name text NOT NULL,
                    created_at double precision NOT NULL,
                    expires_at double precision NOT NULL,
                    poll_interval double precision NOT NULL,
                    polled_at double precision,
                    group_id text REFERENCES groups(id),
                    approved_at double precision,
                    denied_at double precision,
                    redeemed_at double precision
                );
                CREATE INDEX device_authorizations_by_expiry ON device_authorizations (expires_at);
                CREATE TABLE view_tokens (
                    token_hash bytea PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    created_at double precision NOT NULL,
                    revoked_at double precision
                );
                CREATE INDEX view_tokens_by_group ON view_tokens (group_id);
                CREATE TABLE invites (
                    code_hash bytea PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    created_by text NOT NULL,
                    created_at double precision NOT NULL,
                    expires_at double precision NOT NULL,
                    redeemed_at double precision,
                    redeemed_by text
                );
                CREATE INDEX invites_by_expiry ON invites (expires_at);
                CREATE TABLE summary_links (
                    token_hash bytea PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    round_id uuid NOT NULL,
                    created_at double precision NOT NULL,
                    revoked_at double precision
                );
                CREATE INDEX summary_links_by_group ON summary_links (group_id);

                -- The feed is what every device replicates by seq: a row changed or removed
                -- after it was served would leave each device's copy silently different. The
                -- database refuses it, whoever asks (a restore drops and recreates tables,
                -- which is not an UPDATE or a DELETE). A correction is a new event.
                CREATE FUNCTION hyzer_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION '% is append-only: %', TG_TABLE_NAME, TG_ARGV[0]
                        USING ERRCODE = 'restrict_violation';
                END;
                $$;
                CREATE TRIGGER changes_append_only_update BEFORE UPDATE ON changes FOR EACH ROW
                    EXECUTE FUNCTION hyzer_append_only('the feed is never rewritten; push a new version instead');
                CREATE TRIGGER changes_append_only_delete BEFORE DELETE ON changes FOR EACH ROW
                    EXECUTE FUNCTION hyzer_append_only('the feed is never deleted from');
                CREATE TRIGGER changes_append_only_truncate BEFORE TRUNCATE ON changes FOR EACH STATEMENT
                    EXECUTE FUNCTION hyzer_append_only('the feed is never deleted from');
                CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events FOR EACH ROW
                    EXECUTE FUNCTION hyzer_append_only('record a correction that supersedes the event instead');
                CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events FOR EACH ROW
                    EXECUTE FUNCTION hyzer_append_only('score events are never deleted');
                CREATE TRIGGER events_append_only_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT
                    EXECUTE FUNCTION hyzer_append_only('score events are never deleted');
                """),
        // SQLite's migration of the same name: the registered player a device plays as,
        // claimed with an invite (NULL for none). The redeem takes the group's claim lock
        // (`claimLockSpace`) before it checks; the partial index is the backstop, and
        // leaves revoked devices out, so a freed player can be claimed again.
        Migration(
            name: "v7 server: player claims",
            sql: """
                ALTER TABLE devices ADD COLUMN player_id uuid;
                CREATE UNIQUE INDEX devices_one_per_player ON devices (group_id, player_id)
                    WHERE revoked_at IS NULL AND player_id IS NOT NULL;
                """),
        // SQLite's migration of the same name: a name typed on a phone for the kiosk.
        Migration(
            name: "v8 server: name requests",
            sql: """
                CREATE TABLE name_requests (
                    code_hash bytea PRIMARY KEY,
                    group_id text NOT NULL REFERENCES groups(id),
                    created_by text NOT NULL,
                    label text NOT NULL,
                    created_at double precision NOT NULL,
                    expires_at double precision NOT NULL,
                    answered_at double precision,
                    name text
                );
                CREATE INDEX name_requests_by_expiry ON name_requests (expires_at);
                """),
        // SQLite's migration of the same name: how long after its finish a round can be reopened.
        Migration(
            name: "v9 server: group settings",
            sql: """
                ALTER TABLE groups ADD COLUMN reopen_window double precision NOT NULL DEFAULT 86400
                    CHECK (reopen_window >= 0);
                """),
    ]
}
