import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import HyzerHarness
import HyzerKit
import HyzerSyncProtocol
import HyzerTestSupport
import SQLiteFaults
import Testing

@testable import HyzerServer

/// Issue 12 on the server's SQLite storage: the same real faults as the device's store
/// (StorageFaultTests in HyzerCLITests). A refused push is never acknowledged and loses
/// nothing already acknowledged; the database is never moved or rewritten for a fault that
/// is not damage; the error is the named `StorageFault` with its one line.
@Suite(.serialized) struct ServerStorageFaultTests {
    struct Server {
        let dir: URL
        var storage: SQLiteStorage
        let groupID: String
        let device: String
        let fixture: Fixture
        var acknowledged: [UUID] = []

        init(dir: URL) async throws {
            self.dir = dir
            storage = try SQLiteStorage(directory: dir)
            let (group, _) = try await storage.createGroup(name: "League")
            groupID = group.id
            device = "dev-1"
            _ = try await storage.enroll(groupID: groupID, deviceID: device, name: "Phone")
            fixture = try Fixture()
            _ = try await storage.push(groupID: groupID, deviceID: device, records: fixture.setupRecords)
        }

        /// Pushes one event; it is acknowledged only when push returned.
        mutating func push(hole: Int) async throws {
            let event = fixture.event(hole: hole % 9 + 1, strokes: hole % 5 + 1)
            let results = try await storage.push(groupID: groupID, deviceID: device, records: [.scoreEvent(event)]).results
            #expect(results.first?.status == .created)
            acknowledged.append(event.id)
        }

        func expectNothingLost() async throws {
            let pulled = try await storage.pull(groupID: groupID, after: 0, limit: 10_000).records
            let ids = Set(pulled.map(\.record.id))
            #expect(Set(acknowledged).isSubset(of: ids))
        }

        var path: String { dir.appendingPathComponent(SQLiteStorage.fileName).path }
        var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() }
    }

    /// A server with three acknowledged pushes on a fresh tmpfs, or nil (and the reason
    /// printed) where mounting one is not possible.
    static func serverOnVolume(megabytes: Int) async throws -> (ScratchVolume, Server)? {
        if let reason = ScratchVolume.unavailable {
            print("skipped: \(reason); maxPageCountFullRefusesThePush covers the full-disk path")
            return nil
        }
        let volume = try ScratchVolume(megabytes: megabytes)
        var server = try await Server(dir: volume.root.appendingPathComponent("server"))
        for hole in 1...3 { try await server.push(hole: hole) }
        return (volume, server)
    }

    @Test func fullDiskRefusesThePushAndResumes() async throws {
        guard let (volume, started) = try await Self.serverOnVolume(megabytes: 3) else { return }
        var server = started
        let dir = server.dir
        let files = server.files
        let filler = try await volume.fill()
        var refused: (any Error)?
        for hole in 4...40 where refused == nil {
            do { try await server.push(hole: hole) } catch { refused = error }
        }
        #expect(refused as? StorageFault == .full(directory: dir.path, freeBytes: 0), "\(String(describing: refused))")
        #expect(refused.map { "\($0)" }?.hasPrefix("Storage is full: 0 MB free on \(dir.path).") == true)
        try await server.expectNothingLost()
        #expect(server.files == files, "nothing moved or removed")
        try FileManager.default.removeItem(at: filler)
        try await server.push(hole: 41)
        try await server.expectNothingLost()
    }

    @Test func maxPageCountFullRefusesThePush() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-server-full-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        var server = try await Server(dir: dir)
        try await server.push(hole: 1)
        try await server.storage.pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            // PRAGMA takes no bound parameter; the value is a number read just above.
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
        var refused: (any Error)?
        for hole in 2...200 where refused == nil {
            do { try await server.push(hole: hole) } catch { refused = error }
        }
        guard case .full? = refused as? StorageFault else {
            Issue.record("expected a full-storage fault, got \(String(describing: refused))")
            return
        }
        try await server.storage.pool.writeWithoutTransaction { db in
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = 1000000")
        }
        try await server.push(hole: 201)
        try await server.expectNothingLost()
    }

    /// Over HTTP, a full disk is a 503 carrying the one line, not a bare 500: the device
    /// keeps the batch and the person reading its log learns what is wrong. (Negative
    /// control: without `StorageFaultMiddleware` the answer is a 500 with no message.)
    @Test func aFullDiskIsA503WithItsLineOverHTTP() async throws {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        try await h.sqlite.pool.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            // PRAGMA takes no bound parameter; the value is a number read just above.
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
        try await h.test { client in
            var accepted: Int64 = 0
            var refusal: String?
            // Each push is one more event, until the file cannot grow.
            for hole in 1...200 where refusal == nil {
                let records =
                    (hole == 1 ? f.setupRecords : []) + [.scoreEvent(f.event(hole: hole % 18 + 1, strokes: 2 + hole % 5))]
                try await client.execute(
                    uri: "/v1/push", method: .post, headers: headers(token: g.token, device: g.device),
                    body: try body(PushRequest(deviceID: g.device, records: records))
                ) { r in
                    if r.status == .ok {
                        accepted = try decode(PushResponse.self, r).head
                    } else {
                        #expect(r.status == .serviceUnavailable)
                        refusal = errorMessage(r)
                    }
                }
            }
            #expect(refusal?.contains("not saved") == true, "\(refusal ?? "never refused")")
            // The refused batch was rolled back: the feed holds exactly what was acknowledged.
            #expect(try await h.storage.head(groupID: g.groupID) == accepted)
        }
    }

    /// Below 50 MB free the server says so (journal and `spaceWarning`) before a push is
    /// refused, at most every 30 s of its clock, and says when the room is back.
    @Test func lowSpaceIsWarnedBeforeItIsFull() async throws {
        if let reason = ScratchVolume.unavailable {
            print("skipped: \(reason)")
            return
        }
        let volume = try ScratchVolume(megabytes: 96)
        let clock = ManualClock()
        let dir = volume.root.appendingPathComponent("server")
        let storage = try SQLiteStorage(directory: dir, clock: clock)
        #expect(storage.spaceWarning == nil)
        // Leave 20 MB: low, not full.
        let ballast = volume.root.appendingPathComponent("ballast")
        let keep = 20_000_000
        let size = max(0, Int(volume.freeBytes) - keep)
        FileManager.default.createFile(atPath: ballast.path, contents: Data(count: size))
        let (group, _) = try await storage.createGroup(name: "League")
        _ = try await storage.enroll(groupID: group.id, deviceID: "dev-1", name: "Phone")
        let fixture = try Fixture()
        _ = try await storage.push(groupID: group.id, deviceID: "dev-1", records: fixture.setupRecords)
        // Checked at open, so not again before 30 s have passed.
        #expect(storage.spaceWarning == nil)
        clock.advance(by: .seconds(31))
        _ = try await storage.push(groupID: group.id, deviceID: "dev-1", records: [.scoreEvent(fixture.event(hole: 2))])
        #expect(storage.spaceWarning?.hasPrefix("Storage low:") == true, "\(storage.spaceWarning ?? "none")")
        try FileManager.default.removeItem(at: ballast)
        clock.advance(by: .seconds(31))
        _ = try await storage.push(groupID: group.id, deviceID: "dev-1", records: [.scoreEvent(fixture.event(hole: 3))])
        #expect(storage.spaceWarning == nil)
    }

    @Test func readOnlyRemountIsNamedAndTheDatabaseKept() async throws {
        guard let (volume, started) = try await Self.serverOnVolume(megabytes: 64) else { return }
        var server = started
        let dir = server.dir
        try server.storage.close()
        let files = server.files
        try volume.remount(readOnly: true)
        #expect(throws: StorageFault.readOnly(directory: dir.path)) { _ = try SQLiteStorage(directory: dir) }
        let cli = try await Binary.run("hyzer-server", ["group", "list", "--data", dir.path])
        #expect(cli.status != 0)
        #expect(cli.stderr.contains("Storage is read-only"), "\(cli.stderr)")
        #expect(!cli.stderr.contains("Usage:") && cli.stderr.split(whereSeparator: \.isNewline).count == 1, "\(cli.stderr)")
        #expect(server.files == files)
        try volume.remount(readOnly: false)
        server.storage = try SQLiteStorage(directory: dir)
        try await server.expectNothingLost()
        try await server.push(hole: 4)
    }

    @Test func aLockedDatabaseIsBusyNotDamaged() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-server-locked-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        var server = try await Server(dir: dir)
        try await server.push(hole: 1)
        let holder = try LockHolder(server.path)
        var refused: (any Error)?
        do { try await server.push(hole: 2) } catch { refused = error }
        #expect(refused as? StorageFault == .busy(path: server.path), "\(String(describing: refused))")
        holder.release()
        try await server.push(hole: 3)
        try await server.expectNothingLost()
    }

    @Test func aDamagedDatabaseIsNamedAndLeftForRestore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-server-damaged-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(SQLiteStorage.fileName)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: path)
        var thrown: (any Error)?
        do { _ = try SQLiteStorage(directory: dir) } catch { thrown = error }
        let fault = try #require(thrown as? StorageFault)
        #expect(fault.isDamage)
        #expect(try Data(contentsOf: path) == garbage, "a damaged server database is kept as it is, for restore")
    }
}
