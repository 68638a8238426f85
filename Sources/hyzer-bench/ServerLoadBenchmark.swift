import AsyncHTTPClient
import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerSync
import HyzerSyncProtocol
import Logging
import NIOCore
import Synchronization

/// Many groups scoring at once against real `hyzer-server` processes (issue 10): the
/// server's ingest rate, and the cross-device latency it leaves, on SQLite or on
/// PostgreSQL with one or more instances.
///
/// Each group has one round in play on an 18-hole course and `devices` devices. Device 0
/// of each group watches: it holds the live poke socket (on its own instance) and pulls on
/// every poke, as a kiosk does. The others score: each pushes one event at a time (its own
/// player, the next hole, a correction of the hole's last event once round), spread evenly
/// so that all of them together offer `rate` events a second. Requests go round-robin over
/// the instances. A score's latency runs from just before its push is sent to the moment
/// the group's watcher has pulled it.
///
/// The load comes from this process, on the same machine as the servers (and PostgreSQL):
/// on 2 cores the client's own work is part of what is measured.
enum ServerLoadBenchmark {
    struct Options {
        var groups: Int
        var devices: Int
        var instances: Int
        var database: PostgresLocation?
        var rate: Double
        var seconds: Double
    }

    static func run(_ options: Options, in workspace: Workspace) async throws -> Figures {
        let server = try siblingBinary("hyzer-server")
        let dataDirectory = workspace.subdirectory("server")
        // The instances' logs go in the workspace, which only SQLite's data would create.
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let groups = try await prepare(options, data: dataDirectory)
        log(
            "server-load: \(options.groups) groups x \(options.devices) devices on \(options.instances) instance(s), \(options.database.map { "\($0)" } ?? "SQLite")"
        )

        var processes: [ChildProcess] = []
        var urls: [String] = []
        for index in 0..<options.instances {
            let port = try SoakBenchmark.freePort()
            let place = options.database.map { ["--database", $0.url] } ?? ["--data", dataDirectory.path]
            processes.append(
                try await ChildProcess.start(
                    server, ["serve", "--host", "127.0.0.1", "--port", "\(port)", "--log-level", "error"] + place,
                    output: .file(workspace.url.appendingPathComponent("instance-\(index).log"))))
            urls.append("http://127.0.0.1:\(port)")
        }
        defer { for process in processes { process.terminate() } }
        for url in urls { try await waitUntilHealthy(url) }

        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        configuration.timeout.connect = .seconds(5)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

        let tally = Tally()

        // The watchers: a socket and a puller per group.
        var watchers: [Task<Void, Never>] = []
        for (index, group) in groups.enumerated() {
            let link = group.link(device: 0, url: urls[index % urls.count])
            let client = SyncClient(link: link, http: http)
            let (pokes, poke) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let socket = LiveSocket(link: link, reconnect: Backoff(base: 1, cap: 5), logger: Logger(label: "bench.socket")) {
                event in
                if case .poke = event { poke.yield() }
            }
            watchers.append(Task { try? await socket.run() })
            watchers.append(
                Task {
                    var cursor = group.setupHead
                    for await _ in pokes {
                        while true {
                            guard let page = try? await client.pull(after: cursor, limit: 500) else { break }
                            let now = nowNs()
                            let ids = page.records.map(\.record.id)
                            let started = tally.sent.withLock { sent in ids.compactMap { sent.removeValue(forKey: $0) } }
                            if tally.measuring.load(ordering: .relaxed) {
                                tally.latencies.withLock { $0 += started.map { Double(now - $0) / 1e6 } }
                            }
                            cursor = page.next
                            if !page.hasMore { break }
                        }
                    }
                })
        }
        try await Task.sleep(for: .seconds(2))  // sockets up

        // The scorers.
        let scorers = options.groups * (options.devices - 1)
        let interval = Double(scorers) / options.rate
        let warmup = 3.0
        let end = nowNs() + UInt64((warmup + options.seconds) * 1e9)
        let measureFrom = nowNs() + UInt64(warmup * 1e9)
        let scoring = Task {
            await withTaskGroup(of: Void.self) { tasks in
                for (groupIndex, group) in groups.enumerated() {
                    for device in 1..<options.devices {
                        let clients = urls.map { SyncClient(link: group.link(device: device, url: $0), http: http) }
                        let offset = Double((groupIndex * options.devices + device) % 997) / 997 * interval
                        tasks.addTask {
                            var last: [Int: UUID] = [:]
                            var next = nowNs() + UInt64(offset * 1e9)
                            var count = 0
                            while next < end {
                                let now = nowNs()
                                if next > now { try? await Task.sleep(for: .nanoseconds(Int64(next - now))) }
                                next += UInt64(interval * 1e9)
                                let hole = count % 18 + 1
                                let event = ScoreEvent(
                                    roundID: group.round.id, participantID: group.round.participants[device].id, hole: hole,
                                    strokes: 3 + count % 3, supersedes: last[hole].map { [$0] } ?? [],
                                    reportedBy: group.round.participants[device].id, deviceID: group.deviceIDs[device],
                                    createdAt: Date())
                                let started = nowNs()
                                let counted = started >= measureFrom
                                tally.sent.withLock { $0[event.id] = started }
                                do {
                                    let answer = try await clients[(groupIndex + count) % clients.count].push([
                                        .scoreEvent(ScoreEventRecord(event))
                                    ])
                                    if answer.results.first?.status == .created {
                                        last[hole] = event.id
                                        if counted { tally.acknowledged.add(1, ordering: .relaxed) }
                                    } else {
                                        tally.failures.add(1, ordering: .relaxed)
                                    }
                                } catch {
                                    tally.sent.withLock { _ = $0.removeValue(forKey: event.id) }
                                    tally.failures.add(1, ordering: .relaxed)
                                }
                                count += 1
                            }
                        }
                    }
                }
            }
        }
        try await Task.sleep(for: .seconds(warmup))
        tally.measuring.store(true, ordering: .relaxed)
        await scoring.value
        let measured = Double(nowNs() - measureFrom) / 1e9
        // The last pokes' pulls.
        for _ in 0..<50 where tally.sent.withLock({ !$0.isEmpty }) { try await Task.sleep(for: .milliseconds(100)) }
        tally.measuring.store(false, ordering: .relaxed)
        let unseen = tally.sent.withLock { $0.count }
        for watcher in watchers { watcher.cancel() }
        try? await http.shutdown()
        let samples = tally.latencies.withLock { $0 }
        log(
            "server-load: \(samples.count) latencies, \(tally.failures.load(ordering: .relaxed)) failed pushes, \(unseen) never pulled"
        )
        return [
            "groups": Double(options.groups), "devices": Double(options.devices), "instances": Double(options.instances),
            "offered_events_per_s": options.rate,
            "events_per_s": Double(tally.acknowledged.load(ordering: .relaxed)) / measured,
            "p50_ms": percentile(samples, 50), "p99_ms": percentile(samples, 99), "max_ms": samples.max() ?? .nan,
            "samples": Double(samples.count), "failed_pushes": Double(tally.failures.load(ordering: .relaxed)),
            "never_pulled": Double(unseen),
        ]
    }

    /// What the scorers and the watchers share.
    final class Tally: Sendable {
        /// When each score's push started, until its watcher pulls it.
        let sent = Mutex<[UUID: UInt64]>([:])
        let latencies = Mutex<[Double]>([])
        let acknowledged = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        /// Past the warm-up, before the drain.
        let measuring = Atomic<Bool>(false)
    }

    struct Group: Sendable {
        var id: String
        var name: String
        var round: RoundRecord
        var deviceIDs: [String]
        var tokens: [String]
        var setupHead: Int64

        func link(device: Int, url: String) -> ServerLink {
            ServerLink(
                serverURL: url, groupID: id, groupName: name, deviceID: deviceIDs[device], deviceName: deviceIDs[device],
                deviceToken: tokens[device], enrolledAt: Date())
        }
    }

    /// The groups, their devices and their rounds, written straight into the storage before
    /// any instance starts (what a season of `hyzer-server group create` and joining did).
    static func prepare(_ options: Options, data: URL) async throws -> [Group] {
        let storage = try await openServerStorage(data: data, database: options.database)
        var groups: [Group] = []
        for g in 0..<options.groups {
            let (group, _) = try await storage.createGroup(name: "League \(g)")
            var ids: [String] = []
            var tokens: [String] = []
            for d in 0..<options.devices {
                let id = "g\(g)-d\(d)-\(UUID().uuidString.prefix(6))"
                ids.append(id)
                tokens.append(try await storage.enroll(groupID: group.id, deviceID: id, name: "Device \(d)"))
            }
            let course = try Course(name: "Course \(g)", holeCount: 18)
            let people = (0..<options.devices).map { Participant(id: UUID(), name: "Player \($0)", kind: .registered) }
            let round = RoundRecord(
                id: UUID(), version: UUID(), updatedAt: 100, courseID: course.id, organizerID: people[0].id,
                participants: people, status: .active, createdAt: 100, startedAt: 100)
            let pushed = try await storage.push(
                groupID: group.id, deviceID: ids[0],
                records: [.course(CourseRecord(course, version: UUID(), updatedAt: 100)), .round(round)])
            groups.append(
                Group(id: group.id, name: group.name, round: round, deviceIDs: ids, tokens: tokens, setupHead: pushed.head))
        }
        try await storage.close()
        return groups
    }

    static func waitUntilHealthy(_ url: String) async throws {
        for _ in 0..<400 {
            if (try? await SyncClient.health(server: url)) != nil { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw BenchError("the server at \(url) did not come up")
    }
}
