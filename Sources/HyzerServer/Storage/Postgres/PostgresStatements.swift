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
        typealias Row = (
            groupID: String, role: String, deviceID: String?, head: Int64, reopenWindow: Double?, seq: Int64?, payload: Data?
        )
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
            let (g, r, d, h, w, s, p) = try row.decode((String, String, String?, Int64, Double?, Int64?, Data?).self)
            return (g, r, d, h, w, s, p)
        }
    }

    /// A group's page as the operator's tools and the simulation pull it (`pull(groupID:)`):
    /// the device's pull without the credential. One row even for an empty feed (the head).
    struct GroupPull: PostgresPreparedStatement {
        typealias Row = (head: Int64, reopenWindow: Double?, seq: Int64?, payload: Data?)
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
            let (h, w, s, p) = try row.decode((Int64, Double?, Int64?, Data?).self)
            return (h, w, s, p)
        }
    }

    /// Both pulls: `group` selects the group (`group_id`, maybe more columns) from `$1`;
    /// the rows are `columns` of it, then the group's head, its reopen window (issue 35) and
    /// the page after `$2`, at most `$3` rows, in seq order (none: one row with a null seq,
    /// for the head).
    static func page(of group: String, columns: String) -> String {
        """
        WITH g AS (\(group))
        SELECT \(columns) (SELECT coalesce(max(seq), 0) FROM changes WHERE group_id = g.group_id),
            (SELECT reopen_window FROM groups WHERE id = g.group_id), page.seq, page.payload
        FROM g LEFT JOIN LATERAL (
            SELECT seq, payload FROM changes WHERE group_id = g.group_id AND seq > $2 ORDER BY seq LIMIT $3
        ) page ON true
        ORDER BY page.seq
        """
    }

    /// A push transaction's principals and locks (`PostgresStorage.commitTogether`): the
    /// credentials of the pushes' tokens, each locked `FOR SHARE` (a revocation waits for
    /// the transaction, or the transaction sees it), and the push lock of every group the
    /// transaction may write to (those credentials' groups and `$2`), taken in ascending
    /// order of the lock's key, so that two transactions that share groups (two instances'
    /// batches) queue on the first one instead of deadlocking. The credentials are locked in
    /// token-hash order, the order a restore revokes them in (`PostgresStorage.apply`), for
    /// the same reason. `$4` false takes no group lock (the cursor tests' negative control).
    /// One row a credential found, and one row of nulls when none is (the locks are taken
    /// either way).
    struct PushLocks: PostgresPreparedStatement {
        typealias Row = (tokenHash: Data, groupID: String, role: String, deviceID: String?)?
        static let sql = """
            WITH c AS (
                SELECT token_hash, group_id, role, device_id FROM credentials
                WHERE token_hash = ANY($1::bytea[]) AND revoked_at IS NULL ORDER BY token_hash FOR SHARE),
            l AS (
                SELECT count(locked.x) AS n FROM (
                    SELECT pg_advisory_xact_lock($3, k.h)::text AS x FROM (
                        SELECT DISTINCT hashtext(g.id) AS h
                        FROM (SELECT group_id FROM c UNION ALL SELECT unnest($2::text[])) AS g(id)
                        WHERE $4 ORDER BY 1) k) locked)
            SELECT c.token_hash, c.group_id, c.role, c.device_id FROM l LEFT JOIN c ON true
            """

        var tokenHashes: [Data]
        var groupIDs: [String]
        var lockSpace: Int32
        var locking: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(tokenHashes.map { ByteBuffer(data: $0) })
            bindings.append(groupIDs)
            bindings.append(lockSpace)
            bindings.append(locking)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (t, g, r, d) = try row.decode((Data?, String?, String?, String?).self)
            guard let t, let g, let r else { return nil }
            return (t, g, r, d)
        }
    }

    /// What a push transaction reads before it decides (`PostgresFeedLedger.read`), for
    /// every group in it, each row tagged with what it is:
    ///
    /// - 0, **stored**: the statements stored under the batch's (group, kind, id)s, with
    ///   their seq (a retry's repeats);
    /// - 1, **current**: the current version of each record named, of each event's round,
    ///   and of those rounds' courses (a round names its course in its payload, the
    ///   protocol's JSON `data.courseID`);
    /// - 2, **cell**: the cells of the events the batch's corrections supersede;
    /// - 3, **head**: each group's head (under the groups' locks, the seq its next record
    ///   follows).
    ///
    /// Every lookup names the whole key of an index, (group, kind, id) or (group, event):
    /// the plan this statement keeps stays an index probe however the feed grows (with
    /// only the group in the key it read the group's whole feed, a push slower with every
    /// score).
    struct LedgerRead: PostgresPreparedStatement {
        typealias Row = (
            tag: Int32, groupID: String, kind: String?, id: UUID?, version: UUID?, seq: Int64?, payload: Data?,
            lifecycle: Int?, updatedAt: Double?, roundID: UUID?, participantID: UUID?, hole: Int?
        )
        static let sql = """
            WITH cur AS (
                SELECT c.group_id, c.kind, c.record_id, c.lifecycle, c.updated_at, c.version, ch.payload
                FROM unnest($1::text[], $2::text[], $3::uuid[]) AS w(g, k, r)
                JOIN current_records c ON c.group_id = w.g AND c.kind = w.k AND c.record_id = w.r
                JOIN changes ch ON ch.seq = c.seq)
            SELECT 0::int4, ch.group_id, ch.kind, ch.record_id, ch.version, ch.seq, ch.payload, NULL::int4, NULL::float8,
                    NULL::uuid, NULL::uuid, NULL::int4
                FROM unnest($4::text[], $5::text[], $6::uuid[]) AS q(g, k, r)
                JOIN changes ch ON ch.group_id = q.g AND ch.kind = q.k AND ch.record_id = q.r
            UNION ALL
            SELECT 1, group_id, kind, record_id, version, NULL, payload, lifecycle, updated_at, NULL, NULL, NULL FROM cur
            UNION ALL
            SELECT 1, c.group_id, c.kind, c.record_id, c.version, NULL, ch.payload, c.lifecycle, c.updated_at, NULL, NULL, NULL
                FROM cur r
                JOIN current_records c ON c.group_id = r.group_id AND c.kind = 'course'
                    AND c.record_id = (convert_from(r.payload, 'UTF8')::jsonb #>> '{data,courseID}')::uuid
                JOIN changes ch ON ch.seq = c.seq
                WHERE r.kind = 'round' AND NOT EXISTS (
                    SELECT 1 FROM cur WHERE cur.group_id = c.group_id AND cur.kind = 'course' AND cur.record_id = c.record_id)
            UNION ALL
            SELECT 2, e.group_id, NULL, e.event_id, NULL, e.seq, NULL, NULL, NULL, e.round_id, e.participant_id, e.hole
                FROM unnest($7::text[], $8::uuid[]) AS s(g, e)
                JOIN events e ON e.group_id = s.g AND e.event_id = s.e
            UNION ALL
            SELECT 3, h.g, NULL, NULL, NULL, (SELECT coalesce(max(seq), 0) FROM changes WHERE group_id = h.g), NULL, NULL, NULL,
                    NULL, NULL, NULL
                FROM unnest($9::text[]) AS h(g)
            """

        /// The records whose current version the batch needs.
        var wanted: [GroupRecordIdentity]
        /// The records whose stored statements the batch might repeat.
        var named: [GroupRecordIdentity]
        /// The score events the batch's corrections supersede.
        var superseded: [GroupRecordIdentity]
        var groupIDs: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 9)
            bindings.append(wanted.map(\.groupID))
            bindings.append(wanted.map(\.identity.kind))
            bindings.append(wanted.map(\.identity.id))
            bindings.append(named.map(\.groupID))
            bindings.append(named.map(\.identity.kind))
            bindings.append(named.map(\.identity.id))
            bindings.append(superseded.map(\.groupID))
            bindings.append(superseded.map(\.identity.id))
            bindings.append(groupIDs)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (t, g, k, i, v, q, p, l, u, r, pa, h) = try row.decode(
                (Int32, String, String?, UUID?, UUID?, Int64?, Data?, Int?, Double?, UUID?, UUID?, Int?).self)
            return (t, g, k, i, v, q, p, l, u, r, pa, h)
        }
    }

    /// A push transaction's writes (`PostgresFeedLedger.write`), for every group in it:
    /// seqs drawn for what was appended, in order; the statements; the new current
    /// versions; the new events' cells; and one NOTIFY a group that every instance hears if
    /// (and only when) this commits, in `PostgresFeedListener.feedMessage`'s form, "feed
    /// HEAD GROUP". The inserts are data-modifying CTEs: each runs once, and the foreign keys
    /// to `changes` are checked at the end of the statement, when its rows are there. A slot
    /// is a row's place among the drawn seqs (1-based): the k-th appended row gets the k-th
    /// seq, so each group's rows get ascending seqs in the order its pushes appended them.
    struct FeedWrite: PostgresPreparedStatement {
        typealias Row = [Int64]
        static let sql = """
            WITH s AS (
                SELECT array_agg(x ORDER BY x) AS seqs
                FROM (SELECT nextval('changes_seq_seq') AS x FROM generate_series(1, $1)) d),
            ins AS (
                INSERT INTO changes (seq, group_id, kind, record_id, version, payload, pushed_by, received_at)
                SELECT s.seqs[t.o::int], t.g, t.k, t.r, t.v, t.p, t.b, $2
                FROM s, unnest($3::text[], $4::text[], $5::uuid[], $6::uuid[], $7::bytea[], $8::text[])
                    WITH ORDINALITY AS t(g, k, r, v, p, b, o)),
            cur AS (
                INSERT INTO current_records (group_id, kind, record_id, seq, lifecycle, updated_at, version)
                SELECT t.g, t.k, t.r, s.seqs[t.o], t.l, t.u, t.v
                FROM s, unnest($9::text[], $10::text[], $11::uuid[], $12::int[], $13::int[], $14::float8[], $15::uuid[])
                    AS t(g, k, r, o, l, u, v)
                ON CONFLICT (group_id, kind, record_id) DO UPDATE SET
                    seq = excluded.seq, lifecycle = excluded.lifecycle, updated_at = excluded.updated_at,
                    version = excluded.version),
            ev AS (
                INSERT INTO events (group_id, event_id, round_id, participant_id, hole, seq)
                SELECT t.g, t.e, t.r, t.p, t.h, s.seqs[t.o]
                FROM s, unnest($16::text[], $17::uuid[], $18::uuid[], $19::uuid[], $20::int[], $21::int[])
                    AS t(g, e, r, p, h, o))
            SELECT s.seqs, (
                SELECT count(pg_notify($22, 'feed ' || s.seqs[n.o] || ' ' || n.g)::text)
                FROM unnest($23::text[], $24::int[]) AS n(g, o))
            FROM s
            """

        /// The appended statements, in slot order.
        var appended: [ChangeRow]
        /// The new current versions and events' cells, each with its statement's slot.
        var currents: [(row: CurrentRecordRow, slot: Int32)]
        var events: [(row: EventRow, slot: Int32)]
        var receivedAt: Double
        var channel: String
        /// Each group's last slot: its head once this commits.
        var heads: [(groupID: String, slot: Int32)]

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings(capacity: 24)
            b.append(Int32(appended.count))
            b.append(receivedAt)
            b.append(appended.map(\.groupID))
            b.append(appended.map(\.kind))
            b.append(appended.map(\.recordID))
            b.append(appended.map(\.version))
            b.append(appended.map { ByteBuffer(data: $0.payload) })
            b.append(appended.map(\.pushedBy))
            b.append(currents.map { $0.row.groupID })
            b.append(currents.map { $0.row.kind })
            b.append(currents.map { $0.row.recordID })
            b.append(currents.map { $0.slot })
            b.append(currents.map { Int32($0.row.lifecycle) })
            b.append(currents.map { $0.row.updatedAt })
            b.append(currents.map { $0.row.version })
            b.append(events.map { $0.row.groupID })
            b.append(events.map { $0.row.eventID })
            b.append(events.map { $0.row.roundID })
            b.append(events.map { $0.row.participantID })
            b.append(events.map { Int32($0.row.hole) })
            b.append(events.map { $0.slot })
            b.append(channel)
            b.append(heads.map { $0.groupID })
            b.append(heads.map { $0.slot })
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (seqs, _) = try row.decode(([Int64], Int64).self)
            return seqs
        }
    }
}
