import Foundation
import GRDB
import HyzerKit
@testable import HyzerServer
import HyzerSyncProtocol
import Testing

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
        let pushed = try await h.storage.push(groupID: g.groupID, deviceID: g.device,
                                              records: f.setupRecords + [.scoreEvent(f.event())])
        #expect(pushed.results.allSatisfy { $0.status == .created })
        let before = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)

        let attempts: [(String, @Sendable (Database) throws -> Void)] = [
            ("changes is append-only", { db in _ = try ChangeRow.updateAll(db, ChangeRow.Columns.payload.set(to: Data())) }),
            ("changes is append-only", { db in _ = try ChangeRow.filter(ChangeRow.Columns.kind == RecordKind.scoreEvent.rawValue).deleteAll(db) }),
            ("events is append-only", { db in _ = try EventRow.updateAll(db, Column(EventRow.CodingKeys.hole).set(to: 2)) }),
            ("events is append-only", { db in _ = try EventRow.deleteAll(db) }),
        ]
        for (message, attempt) in attempts {
            let error = await #expect(throws: DatabaseError.self) {
                try await h.storage.pool.write { db in try attempt(db) }
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
            #expect(error?.message?.contains(message) == true, "\(error?.message ?? "no message") should say \(message)")
        }
        // Nothing changed: the transaction of each attempt rolled back.
        let after = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)
        #expect(after.records == before.records)
        #expect(try await h.storage.pool.read { db in try EventRow.fetchCount(db) } == 1)
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
        #expect(try await storage.pool.read(triggerNames) == [
            "changes_append_only_delete", "changes_append_only_update", "events_append_only_delete", "events_append_only_update",
        ])
    }

    @Sendable func triggerNames(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    }
}
