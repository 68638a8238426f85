import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerHarness
import HyzerKit
import HyzerSyncProtocol
import Logging
import Testing

@testable import HyzerServer

/// The server's storage backends. The conformance tests run once on each: every test
/// taking a `Backend` argument is a rule both must keep.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// A server storage (SQLite in a temp directory, or a fresh database on the tests' own
/// PostgreSQL server) and the application around it, driven in-process.
final class Harness: Sendable {
    let dir: URL
    let storage: any ServerStorage

    /// SQLite, for the tests of what only SQLite has (its file, its state file).
    init(clock: any HyzerClock = SystemClock()) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-server-test-\(UUID().uuidString)")
        storage = try SQLiteStorage(directory: dir, clock: clock)
    }

    private init(dir: URL, storage: any ServerStorage) {
        self.dir = dir
        self.storage = storage
    }

    static func make(_ backend: Backend, clock: any HyzerClock = SystemClock()) async throws -> Harness {
        switch backend {
        case .sqlite: return try Harness(clock: clock)
        case .postgres:
            let location = try await ThrowawayPostgres.shared.freshDatabase()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-server-test-\(UUID().uuidString)")
            return Harness(dir: dir, storage: try await PostgresStorage.open(location, clock: clock))
        }
    }

    /// The SQLite storage of an `init(clock:)` harness.
    var sqlite: SQLiteStorage { storage as! SQLiteStorage }

    deinit {
        try? FileManager.default.removeItem(at: dir)
        // A PostgreSQL storage's connections close with it.
        if let postgres = storage as? PostgresStorage { Task { await postgres.close() } }
    }

    /// The configuration `test` serves with when it is given none.
    var config: ServerConfiguration { ServerConfiguration(dataDirectory: dir, host: "127.0.0.1", port: 0) }

    /// `config`: another configuration (operations tests: metrics, rate limits).
    func test(
        _ config: ServerConfiguration? = nil, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let app = buildApplication(config ?? self.config, storage: storage, logger: logger)
        try await app.app.test(.router) { client in try await body(client) }
    }

    /// A group with one enrolled device: (admin token, device id, device token).
    func group(
        _ name: String = "League", device: String = "dev-\(UUID().uuidString.prefix(8))"
    ) async throws -> (admin: String, device: String, token: String, groupID: String) {
        let (group, admin) = try await storage.createGroup(name: name)
        let token = try await storage.enroll(groupID: group.id, deviceID: device, name: "Phone")
        return (admin, device, token, group.id)
    }
}

func headers(token: String?, device: String? = nil) -> HTTPFields {
    var fields = HTTPFields()
    if let token { fields[.authorization] = "Bearer \(token)" }
    if let device { fields[HTTPField.Name(SyncProtocol.deviceHeader)!] = device }
    fields[.contentType] = "application/json"
    return fields
}

func body<T: Encodable>(_ value: T) throws -> ByteBuffer {
    ByteBuffer(bytes: try SyncCoding.encoder().encode(value))
}

func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try SyncCoding.decoder().decode(T.self, from: Data(response.body.readableBytesView))
}

func errorMessage(_ response: TestResponse) -> String {
    (try? decode(ErrorResponse.self, response).error.message) ?? String(buffer: response.body)
}

/// A course, a started round of two on it, and helpers for events.
struct Fixture {
    // (memberwise init in StorageTests.swift)
    let course: CourseRecord
    let round: RoundRecord
    var participants: [UUID] { round.participants.map(\.id) }

    init(status: RoundStatus = .active) throws {
        let c = try Course(name: "Pine Hollow", holeCount: 9)
        course = CourseRecord(c, version: UUID(), updatedAt: 100)
        let people = [
            Participant(id: UUID(), name: "Nate", kind: .registered),
            Participant(id: UUID(), name: "Mike", kind: .guest),
        ]
        round = RoundRecord(
            id: UUID(), version: UUID(), updatedAt: 100, courseID: c.id, organizerID: people[0].id,
            participants: people, status: status, createdAt: 100, startedAt: status == .setup ? nil : 100)
    }

    func event(
        _ participant: Int = 0, hole: Int = 1, strokes: Int = 3, device: String = "dev", supersedes: [UUID] = []
    ) -> ScoreEventRecord {
        ScoreEventRecord(
            ScoreEvent(
                roundID: round.id, participantID: participants[participant], hole: hole, strokes: strokes,
                supersedes: supersedes, reportedBy: participants[0], deviceID: device,
                createdAt: Date(timeIntervalSince1970: 200)))
    }

    var setupRecords: [SyncRecord] { [.course(course), .round(round)] }
}
