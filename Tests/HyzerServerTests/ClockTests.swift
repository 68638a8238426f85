import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Logging
import Testing

@testable import HyzerServer

/// Every time the server stores comes from the injected clock, never from `Date()`.
@Suite struct ClockTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func storedTimesFollowTheInjectedClock() async throws {
        let clock = ManualClock(date: Self.start)
        let h = try Harness(clock: clock)
        let t0 = Self.start.timeIntervalSince1970

        let createdAt = try await h.sqlite.pool.read { db in try ServerMetaRow.fetchOne(db, key: "created_at")?.value }
        #expect(createdAt == "2027-01-15T08:00:00Z")

        let g = try await h.group()
        let group = try await h.sqlite.pool.read { db in try GroupRow.fetchOne(db, key: g.groupID) }
        #expect(group?.createdAt == t0)
        #expect(try await h.storage.devices(groupID: g.groupID).map(\.enrolledAt) == [t0])

        clock.advance(by: .seconds(90))
        let f = try Fixture()
        _ = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords)
        let received = try await h.sqlite.pool.read { db in try ChangeRow.fetchAll(db).map(\.receivedAt) }
        #expect(received == [t0 + 90, t0 + 90])

        clock.advance(by: .seconds(30))
        try await h.storage.revoke(groupID: g.groupID, deviceID: g.device)
        #expect(try await h.storage.devices(groupID: g.groupID).map(\.revokedAt) == [t0 + 120])
        let credentials = try await h.sqlite.pool.read { db in
            try CredentialRow.filter(CredentialRow.Columns.deviceID == g.device).fetchAll(db)
        }
        #expect(credentials.map(\.createdAt) == [t0])
        #expect(credentials.map(\.revokedAt) == [t0 + 120])
    }

    /// `buildApplication(config)` opens its storage with the configuration's clock.
    @Test func theApplicationUsesTheConfiguredClock() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-clock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = ManualClock(date: Self.start)
        let setup = try SQLiteStorage(directory: dir, clock: clock)
        let (_, admin) = try await setup.createGroup(name: "League")
        try setup.close()

        clock.advance(by: .seconds(42))
        let app = try await buildApplication(
            ServerConfiguration(
                dataDirectory: dir, host: "127.0.0.1", port: 0,
                logLevel: .warning, clock: clock))
        try await app.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/devices", method: .post, headers: headers(token: admin),
                body: try body(EnrollRequest(deviceID: "kiosk-1", name: "Kiosk"))
            ) { r in
                #expect(r.status == .created)
            }
            try await client.execute(uri: "/v1/devices", method: .get, headers: headers(token: admin)) { r in
                let list = try decode(DeviceList.self, r)
                #expect(list.devices.map(\.enrolledAt) == [Self.start.timeIntervalSince1970 + 42])
            }
        }
    }
}
