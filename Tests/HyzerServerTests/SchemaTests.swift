import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// The server schema: named, append-only migrations, and a feed the database itself
/// refuses to rewrite.
@Suite struct SchemaTests {
    /// Shipped migrations keep their names and order: a server in the field has recorded
    /// them by name, and a renamed or reordered one would run again or never.
    @Test func migrationsAreNamedAndAppendOnly() {
        let names = ServerSchema.migrator(clock: ManualClock()).migrations
        #expect(Array(names.prefix(2)) == ["v1 server", "v2 server: append-only feed"])
    }

    @Test func theFeedRefusesUpdatesAndDeletes() async throws {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        let pushed = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: f.setupRecords + [.scoreEvent(f.event())])
        #expect(pushed.results.allSatisfy { $0.status == .created })
        let before = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)

        let attempts: [(String, @Sendable (Database) throws -> Void)] = [
            ("changes is append-only", { db in _ = try ChangeRow.updateAll(db, ChangeRow.Columns.payload.set(to: Data())) }),
            (
                "changes is append-only",
                { db in _ = try ChangeRow.filter(ChangeRow.Columns.kind == RecordKind.scoreEvent.rawValue).deleteAll(db) }
            ),
            ("events is append-only", { db in _ = try EventRow.updateAll(db, EventRow.Columns.hole.set(to: 2)) }),
            ("events is append-only", { db in _ = try EventRow.deleteAll(db) }),
        ]
        for (message, attempt) in attempts {
            let error = await #expect(throws: DatabaseError.self) {
                try await h.sqlite.pool.write { db in try attempt(db) }
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
            #expect(error?.message?.contains(message) == true, "\(error?.message ?? "no message") should say \(message)")
        }
        // Nothing changed: the transaction of each attempt rolled back.
        let after = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)
        #expect(after.records == before.records)
        #expect(try await h.sqlite.pool.read { db in try EventRow.fetchCount(db) } == 1)
    }

    /// Every table reads back through its record: the snake_case columns and the Swift
    /// names (`group_id` / `groupID`) map both ways, for every column of every table.
    @Test func everyTableRoundTripsThroughItsRecord() async throws {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        let first = f.event()
        let correction = f.event(strokes: 4, supersedes: [first.id])
        let records = f.setupRecords + [.scoreEvent(first), .scoreEvent(correction)]
        let results = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: records).results
        #expect(results.map(\.status) == [.created, .created, .created, .created])

        let (meta, groups, credentials, devices, changes, current, events) = try await h.sqlite.pool.read { db in
            (
                try ServerMetaRow.fetchAll(db), try GroupRow.fetchAll(db), try CredentialRow.fetchAll(db),
                try DeviceRow.fetchAll(db),
                try ChangeRow.fetchAll(db), try CurrentRecordRow.fetchAll(db), try EventRow.fetchAll(db)
            )
        }
        #expect(Set(meta.map(\.key)) == ["epoch", "created_at"])
        #expect(meta.first { $0.key == "epoch" }?.value == h.storage.epoch)
        #expect(groups.map(\.id) == [g.groupID])
        #expect(Set(credentials.map(\.role)) == ["admin", "device"])
        #expect(credentials.allSatisfy { $0.groupID == g.groupID && $0.tokenHash.count == 32 && $0.revokedAt == nil })
        #expect(credentials.compactMap(\.deviceID) == [g.device])
        #expect(devices.map(\.deviceID) == [g.device] && devices.map(\.groupID) == [g.groupID])
        #expect(changes.map(\.seq) == [1, 2, 3, 4])
        #expect(changes.map(\.recordID) == records.map(\.id))
        #expect(changes.map(\.version) == records.map(\.version))
        #expect(changes.map(\.kind) == records.map(\.kind.rawValue))
        #expect(changes.allSatisfy { $0.groupID == g.groupID && $0.pushedBy == g.device && !$0.payload.isEmpty })
        #expect(Set(current.map(\.recordID)) == [f.course.id, f.round.id])
        let round = try #require(current.first { $0.recordID == f.round.id })
        #expect(round.groupID == g.groupID && round.kind == RecordKind.round.rawValue && round.seq == 2)
        #expect(round.updatedAt == f.round.updatedAt && round.version == f.round.version && round.lifecycle > 0)
        #expect(Set(events.map(\.eventID)) == [first.id, correction.id])
        let cell = try #require(events.first { $0.eventID == correction.id })
        #expect(cell.roundID == f.round.id && cell.participantID == f.participants[0] && cell.hole == 1 && cell.seq == 4)
    }

    /// A database a server of the first schema wrote gains the triggers on the next start,
    /// with its rows intact.
    @Test func aFirstSchemaDatabaseIsMigratedInPlace() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: dir.appendingPathComponent(SQLiteStorage.fileName).path)
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue, upTo: "v1 server")
        #expect(try await queue.read(triggerNames).isEmpty)
        try queue.close()

        let storage = try SQLiteStorage(directory: dir)
        defer { try? storage.close() }
        let (group, _) = try await storage.createGroup(name: "League")
        _ = try await storage.enroll(groupID: group.id, deviceID: "d1", name: "Phone")
        let f = try Fixture()
        _ = try await storage.push(groupID: group.id, deviceID: "d1", records: f.setupRecords)
        let error = await #expect(throws: DatabaseError.self) {
            try await storage.pool.write { db in _ = try ChangeRow.deleteAll(db) }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
        #expect(try await storage.head(groupID: group.id) == 2)
        #expect(
            try await storage.pool.read(triggerNames) == [
                "changes_append_only_delete", "changes_append_only_update", "events_append_only_delete",
                "events_append_only_update",
            ])
    }

    /// A database a server before player claims wrote (its schema exactly the shipped v6
    /// fixture, server-schema.txt) gains `devices.player_id` and its index on the next
    /// start, exactly as the v7 fixture has them (the v8 fixture adds a table after them), with every row intact and claiming nobody;
    /// and its phones can claim players from then on.
    @Test func aV6DatabaseGainsPlayerClaimsInPlace() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-schema-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: dir.appendingPathComponent(SQLiteStorage.fileName).path)
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue, upTo: "v6 server: summary links")
        #expect(try ServerSchemaFixtureTests.dump(queue) == ServerSchemaFixtureTests.shipped())
        // What that server wrote, in its own columns: a group, its kiosk (with a token), a
        // phone revoked since.
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO groups (id, name, created_at) VALUES ('g1', 'League', 1);
                    INSERT INTO devices (group_id, device_id, name, enrolled_at, revoked_at)
                        VALUES ('g1', 'kiosk', 'Kiosk', 1, NULL), ('g1', 'old-phone', 'Old phone', 1.5, 2);
                    INSERT INTO credentials (token_hash, group_id, role, device_id, created_at)
                        VALUES (x'00', 'g1', 'device', 'kiosk', 1);
                    """)
        }
        try queue.close()

        let storage = try SQLiteStorage(directory: dir)
        defer { try? storage.close() }
        // Every later migration too (v8: name requests, which only adds a table; v9: a
        // group's reopen window, a column with a default).
        #expect(try ServerSchemaFixtureTests.dump(storage.pool) == ServerSchemaFixtureTests.shipped("server-v9"))
        #expect(try await storage.group(id: "g1")?.reopenWindow == Round.defaultReopenWindow)
        let devices = try await storage.devices(groupID: "g1")
        #expect(devices.map(\.deviceID) == ["kiosk", "old-phone"] && devices.map(\.revokedAt) == [nil, 2])
        #expect(devices.allSatisfy { $0.playerID == nil && $0.playerName == nil })
        let nate = PlayerRecord(id: UUID(), version: UUID(), updatedAt: 1, displayName: "Nate", aliases: [])
        _ = try await storage.push(groupID: "g1", deviceID: "kiosk", records: [.player(nate)])
        let invite = try await storage.createInvite(groupID: "g1", createdBy: "kiosk", lifetime: 600)
        let phone = try await storage.redeemInvite(code: invite.code, deviceID: "phone", name: "Nate's phone", playerID: nate.id)
        #expect(phone.playerID == nate.id)
        #expect(try await storage.devices(groupID: "g1").last?.playerName == "Nate")
    }

    @Sendable func triggerNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    }
}
