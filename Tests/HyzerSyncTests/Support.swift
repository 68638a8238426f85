import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import Logging
import Testing

func temporaryDirectory(_ label: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID().uuidString)")
}

/// A group server on loopback (ephemeral port) with one group, and devices enrolled in it.
final class TestGroup: @unchecked Sendable {
    let serverDir: URL
    private(set) var server: RunningServer
    let adminToken: String
    let groupID: String
    private var devices: [TestDevice] = []

    static func start() async throws -> TestGroup {
        let dir = temporaryDirectory("server")
        let server = try await RunningServer.start(
            ServerConfiguration(dataDirectory: dir, host: "127.0.0.1", port: 0, logLevel: .warning))
        let (group, token) = try await server.storage.createGroup(name: "Test League")
        return TestGroup(serverDir: dir, server: server, adminToken: token, groupID: group.id)
    }

    private init(serverDir: URL, server: RunningServer, adminToken: String, groupID: String) {
        self.serverDir = serverDir
        self.server = server
        self.adminToken = adminToken
        self.groupID = groupID
    }

    /// A new device: its own data directory with the seeded courses, enrolled.
    /// `transport` stands between the engine and the server when given (an older device's
    /// decoder, an older server's answers).
    func device(
        _ name: String, options: SyncEngine.Options = SyncEngine.Options(),
        transport: (@Sendable (SyncClient) -> any SyncTransport)? = nil
    ) async throws -> TestDevice {
        let dir = temporaryDirectory("device-\(name)")
        let db = try HyzerDatabase.open(dataDirectory: dir, assets: repositoryRoot.appendingPathComponent("assets"))
        let answer = try await SyncClient.enroll(
            server: server.baseURL, groupToken: adminToken, deviceID: db.deviceID, name: name)
        let link = ServerLink(
            serverURL: server.baseURL, groupID: answer.groupID, groupName: answer.groupName,
            deviceID: db.deviceID, deviceName: name, deviceToken: answer.deviceToken, enrolledAt: db.clock.date)
        let device = TestDevice(
            name: name, dir: dir, db: db, link: link, options: options, transport: transport.map { $0(SyncClient(link: link)) })
        devices.append(device)
        return device
    }

    /// Stops the server (graceful) and starts it again on the same port and directory.
    func restart(beforeStart: () throws -> Void = {}) async throws {
        let port = server.port
        await server.stop()
        try beforeStart()
        server = try await RunningServer.start(
            ServerConfiguration(dataDirectory: serverDir, host: "127.0.0.1", port: port, logLevel: .warning))
    }

    /// Every score event the server holds for the group, by id (a duplicate would collide).
    func serverEvents() async throws -> [UUID: ScoreEventRecord] {
        var result: [UUID: ScoreEventRecord] = [:]
        var after: Int64 = 0
        for _ in 0..<1000 {
            let page = try await server.storage.pull(groupID: groupID, after: after, limit: 1000)
            for pulled in page.records {
                if case .scoreEvent(let e) = pulled.record {
                    #expect(result[e.id] == nil, "event \(e.id) is in the feed twice")
                    result[e.id] = e
                }
            }
            after = page.next
            if !page.hasMore { break }
        }
        return result
    }

    func shutdown() async {
        for d in devices { await d.stopEngine() }
        await server.stop()
        try? FileManager.default.removeItem(at: serverDir)
        for d in devices { try? FileManager.default.removeItem(at: d.dir) }
    }
}

final class TestDevice: @unchecked Sendable {
    let name: String
    let dir: URL
    let db: HyzerDatabase
    let link: ServerLink
    let engine: SyncEngine
    /// The engine's service while it runs (`startEngine`), as the kiosk's ServiceGroup runs it.
    private var running: Task<Void, Never>?

    init(
        name: String, dir: URL, db: HyzerDatabase, link: ServerLink, options: SyncEngine.Options,
        transport: (any SyncTransport)? = nil
    ) {
        self.name = name
        self.dir = dir
        self.db = db
        self.link = link
        self.engine =
            if let transport {
                SyncEngine(database: db, link: link, transport: transport, options: options)
            } else {
                SyncEngine(database: db, link: link, options: options)
            }
    }

    @discardableResult
    func sync() async throws -> SyncReport { try await engine.syncNow() }

    func startEngine() {
        let engine = engine
        running = Task { try? await engine.run() }
    }

    /// Cancels the engine's run and waits for it to return.
    func stopEngine() async {
        running?.cancel()
        await running?.value
        running = nil
    }

    /// A started round on the first seeded 18-hole course.
    func startRound(_ names: [String]) throws -> Round {
        let course = try #require(try db.read(.courses).first { $0.holeCount == 18 })
        return try db.startedRound(on: course, names: names)
    }

    @discardableResult
    func score(_ round: Round, _ participant: Int, hole: Int, _ strokes: Int, at date: Date = Date()) throws -> RecordedScore {
        try db.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: round.participants[participant].id, hole: hole,
                    strokes: strokes, reportedBy: round.participants[participant].id), at: date))
    }

    func snapshot(_ round: Round) throws -> RoundSnapshot { try db.read(.snapshot(round: round.id)) }
}

/// A loopback port for "a server that is not there": bound by this test process for its whole
/// life and never listened on, so a connection is refused at once and no other test's server
/// can be given it. (A port from `freePort` is free again once it returns: a server another
/// test starts in parallel may take it, and the "absent" server then answers.)
let refusingPort: Int = {
    guard let (_, port) = boundLoopbackSocket() else { preconditionFailure("cannot bind a loopback port") }
    return port
}()

/// Waits for the first value of `stream` matching `predicate`, or nil after `seconds`
/// (a liveness bound, not a timing assertion).
func firstValue<T: Sendable>(
    _ stream: AsyncStream<T>, within seconds: Double, where predicate: @escaping @Sendable (T) -> Bool
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            for await value in stream where predicate(value) { return value }
            return nil
        }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Runs `body` with a fresh group server, and always shuts it down.
func withGroup(_ body: (TestGroup) async throws -> Void) async throws {
    let group = try await TestGroup.start()
    do {
        try await body(group)
    } catch {
        await group.shutdown()
        throw error
    }
    await group.shutdown()
}

extension TestDevice {
    /// The same device after its group server was updated: the same store and link, syncing
    /// at this build's protocol. Two syncs: the first hears the new protocol, the second sends
    /// what waited for it.
    func afterTheServerUpdate() async throws -> TestDevice {
        let updated = TestDevice(name: name, dir: dir, db: db, link: link, options: SyncEngine.Options())
        try await updated.sync()
        try await updated.sync()
        return updated
    }
}
