import Foundation
import NIOFoundationEssentialsCompat
import PostgresNIO

/// The statements every push and pull runs, prepared once a connection (postgres-nio
/// prepares a `PostgresPreparedStatement` on its first use on each connection, by name):
/// parsing and planning them afresh each time was most of PostgreSQL's own CPU under load.
/// The rest of the backend sends its queries unprepared; they are not on a score's path.
enum PostgresStatements {
    /// A device's pull in one statement: its principal, its group's head and the page, from
    /// the statement's one snapshot (so `hasMore` agrees with the page). No row: the token
    /// is unknown or revoked.
    struct Pull: PostgresPreparedStatement {
        typealias Row = (groupID: String, role: String, deviceID: String?, head: Int64, seq: Int64?, payload: Data?)
        static let sql = page(
            of: "SELECT group_id, role, device_id FROM credentials WHERE token_hash = $1 AND revoked_at IS NULL",
            columns: "g.group_id, g.role, g.device_id,")

        var tokenHash: Data
        var after: Int64
        var limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(ByteBuffer(data: tokenHash))
            bindings.append(after)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (g, r, d, h, s, p) = try row.decode((String, String, String?, Int64, Int64?, Data?).self)
            return (g, r, d, h, s, p)
        }
    }

    /// A group's page as the operator's tools and the simulation pull it (`pull(groupID:)`):
    /// the device's pull without the credential. One row even for an empty feed (the head).
    struct GroupPull: PostgresPreparedStatement {
        typealias Row = (head: Int64, seq: Int64?, payload: Data?)
        static let sql = page(of: "SELECT $1::text AS group_id", columns: "")

        var groupID: String
        var after: Int64
        var limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(groupID)
            bindings.append(after)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (h, s, p) = try row.decode((Int64, Int64?, Data?).self)
            return (h, s, p)
        }
    }

    /// Both pulls: `group` selects the group (`group_id`, maybe more columns) from `$1`;
    /// the rows are `columns` of it, then the group's head and the page after `$2`, at most
    /// `$3` rows, in seq order (none: one row with a null seq, for the head).
    static func page(of group: String, columns: String) -> String {
        """
        WITH g AS (\(group))
        SELECT \(columns) (SELECT coalesce(max(seq), 0) FROM changes WHERE group_id = g.group_id), page.seq, page.payload
        FROM g LEFT JOIN LATERAL (
            SELECT seq, payload FROM changes WHERE group_id = g.group_id AND seq > $2 ORDER BY seq LIMIT $3
        ) page ON true
        ORDER BY page.seq
        """
    }

    /// A push's principal, its credential locked `FOR SHARE`, and its group's push lock
    /// (`pg_advisory_xact_lock`), taken only when the token is found.
    struct PushPrincipal: PostgresPreparedStatement {
        typealias Row = (groupID: String, role: String, deviceID: String?)
        static let sql = """
            WITH c AS (
                SELECT group_id, role, device_id FROM credentials
                WHERE token_hash = $1 AND revoked_at IS NULL FOR SHARE)
            SELECT group_id, role, device_id, pg_advisory_xact_lock($2, hashtext(group_id))::text FROM c
            """

        var tokenHash: Data
        var lockSpace: Int32

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(ByteBuffer(data: tokenHash))
            bindings.append(lockSpace)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (g, r, d, _) = try row.decode((String, String, String?, String).self)
            return (g, r, d)
        }
    }

    /// What a push batch reads before it decides (`PostgresFeedLedger.read`): the
    /// statements stored under its (kind, id)s (`stored` true, with their seq), and the
    /// current version of each record it names, of each event's round, and of those
    /// rounds' courses (a round names its course in its payload, the protocol's JSON
    /// `data.courseID`). Every lookup names the whole key of an index, (group, kind, id):
    /// the plan this statement keeps stays an index probe however the group's feed grows
    /// (with only the group in the key it read the group's whole feed, a push slower with
    /// every score).
    struct LedgerRead: PostgresPreparedStatement {
        typealias Row = (
            stored: Bool, kind: String, id: UUID, version: UUID, seq: Int64?, payload: Data, lifecycle: Int?,
            updatedAt: Double?
        )
        static let sql = """
            WITH cur AS (
                SELECT c.kind, c.record_id, c.lifecycle, c.updated_at, c.version, ch.payload
                FROM unnest($2::text[], $3::uuid[]) AS w(k, r)
                JOIN current_records c ON c.group_id = $1 AND c.kind = w.k AND c.record_id = w.r
                JOIN changes ch ON ch.seq = c.seq)
            SELECT true, ch.kind, ch.record_id, ch.version, ch.seq, ch.payload, NULL::int, NULL::float8
                FROM unnest($4::text[], $5::uuid[]) AS q(k, r)
                JOIN changes ch ON ch.group_id = $1 AND ch.kind = q.k AND ch.record_id = q.r
            UNION ALL
            SELECT false, kind, record_id, version, NULL::int8, payload, lifecycle, updated_at FROM cur
            UNION ALL
            SELECT false, c.kind, c.record_id, c.version, NULL::int8, ch.payload, c.lifecycle, c.updated_at
                FROM cur r
                JOIN current_records c ON c.group_id = $1 AND c.kind = 'course'
                    AND c.record_id = (convert_from(r.payload, 'UTF8')::jsonb #>> '{data,courseID}')::uuid
                JOIN changes ch ON ch.seq = c.seq
                WHERE r.kind = 'round' AND NOT EXISTS (SELECT 1 FROM cur WHERE cur.record_id = c.record_id)
            """

        var groupID: String
        /// The records whose current version the batch needs.
        var wanted: [RecordIdentity]
        /// The records whose stored statements the batch might repeat.
        var named: [RecordIdentity]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(groupID)
            bindings.append(wanted.map(\.kind))
            bindings.append(wanted.map(\.id))
            bindings.append(named.map(\.kind))
            bindings.append(named.map(\.id))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (s, k, i, v, q, p, l, u) = try row.decode((Bool, String, UUID, UUID, Int64?, Data, Int?, Double?).self)
            return (s, k, i, v, q, p, l, u)
        }
    }

    /// A push batch's writes (`PostgresFeedLedger.write`): seqs drawn for what was appended,
    /// in order; the statements; the new current versions; the new events' cells; and the
    /// NOTIFY every instance hears if (and only when) this commits, in
    /// `PostgresFeedListener.feedMessage`'s form, "feed HEAD GROUP". The inserts are
    /// data-modifying CTEs: each runs once, and the foreign keys to `changes` are checked at
    /// the end of the statement, when its rows are there. A slot is a provisional seq's
    /// place among the drawn ones (-k is the k-th).
    struct FeedWrite: PostgresPreparedStatement {
        typealias Row = [Int64]
        static let sql = """
            WITH s AS (
                SELECT array_agg(x ORDER BY x) AS seqs
                FROM (SELECT nextval('changes_seq_seq') AS x FROM generate_series(1, $1)) d),
            ins AS (
                INSERT INTO changes (seq, group_id, kind, record_id, version, payload, pushed_by, received_at)
                SELECT s.seqs[t.o::int], $2, t.k, t.r, t.v, t.p, $3, $4
                FROM s, unnest($5::text[], $6::uuid[], $7::uuid[], $8::bytea[]) WITH ORDINALITY AS t(k, r, v, p, o)),
            cur AS (
                INSERT INTO current_records (group_id, kind, record_id, seq, lifecycle, updated_at, version)
                SELECT $2, t.k, t.r, s.seqs[t.o], t.l, t.u, t.v
                FROM s, unnest($9::text[], $10::uuid[], $11::int[], $12::int[], $13::float8[], $14::uuid[])
                    AS t(k, r, o, l, u, v)
                ON CONFLICT (group_id, kind, record_id) DO UPDATE SET
                    seq = excluded.seq, lifecycle = excluded.lifecycle, updated_at = excluded.updated_at,
                    version = excluded.version),
            ev AS (
                INSERT INTO events (group_id, event_id, round_id, participant_id, hole, seq)
                SELECT $2, t.e, t.r, t.p, t.h, s.seqs[t.o]
                FROM s, unnest($15::uuid[], $16::uuid[], $17::uuid[], $18::int[], $19::int[]) AS t(e, r, p, h, o))
            SELECT s.seqs, pg_notify($20, 'feed ' || s.seqs[array_length(s.seqs, 1)] || ' ' || $2)::text FROM s
            """

        var appended: [ChangeRow]
        var currents: [CurrentRecordRow]
        var events: [EventRow]
        var channel: String

        func makeBindings() throws -> PostgresBindings {
            func slot(_ seq: Int64) -> Int32 { Int32(-seq) }
            let first = appended[0]
            var b = PostgresBindings(capacity: 20)
            b.append(Int32(appended.count))
            b.append(first.groupID)
            b.append(first.pushedBy)
            b.append(first.receivedAt)
            b.append(appended.map(\.kind))
            b.append(appended.map(\.recordID))
            b.append(appended.map(\.version))
            b.append(appended.map { ByteBuffer(data: $0.payload) })
            b.append(currents.map(\.kind))
            b.append(currents.map(\.recordID))
            b.append(currents.map { slot($0.seq) })
            b.append(currents.map { Int32($0.lifecycle) })
            b.append(currents.map(\.updatedAt))
            b.append(currents.map(\.version))
            b.append(events.map(\.eventID))
            b.append(events.map(\.roundID))
            b.append(events.map(\.participantID))
            b.append(events.map { Int32($0.hole) })
            b.append(events.map { slot($0.seq) })
            b.append(channel)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (seqs, _) = try row.decode(([Int64], String).self)
            return seqs
        }
    }
}
