import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Logging

/// Cross-device latency (NFR2), recovery after a dead zone (NFR11) and server ingest,
/// with a real server and real SQLite files on loopback, all in this process.
///
/// Latency is measured from the moment device A records a score (the same store write
/// and push `hyzer score` does, without a process start) to the moment device B has
/// pulled it and recomputed the round's standings.
enum SyncBenchmark {
    static let latencySamples = 200

    static func run(in workspace: Workspace) async throws -> Figures {
        let root = workspace.url
        let server = try await RunningServer.start(
            ServerConfiguration(
                dataDirectory: root.appendingPathComponent("server"), host: "127.0.0.1", port: 0, logLevel: .error))
        let (group, admin) = try await server.storage.createGroup(name: "Bench League")
        _ = group

        func device(_ name: String, live: Bool = true) async throws -> (HyzerDatabase, SyncEngine) {
            let db = try HyzerDatabase.open(
                dataDirectory: root.appendingPathComponent(name), assets: HyzerPaths.assetsDirectory())
            if try await db.read(.courses).isEmpty {
                try await db.write(.saveCourse(try Course(name: "Bench Park", holeCount: 18)))
            }
            let answer = try await SyncClient.enroll(server: server.baseURL, groupToken: admin, deviceID: db.deviceID, name: name)
            let link = ServerLink(
                serverURL: server.baseURL, groupID: answer.groupID, groupName: answer.groupName,
                deviceID: db.deviceID, deviceName: name, deviceToken: answer.deviceToken, enrolledAt: db.clock.date)
            var options = SyncEngine.Options()
            options.liveUpdates = live
            return (db, SyncEngine(database: db, link: link, options: options))
        }

        // One round of 24 on 18 holes, known to every device before measuring.
        let (dbA, engineA) = try await device("A")
        let course = try await dbA.read(.courses).first { $0.holeCount == 18 }!
        let players = try HyzerDatabase.demoNames.prefix(24).map { try Player(displayName: $0) }
        for p in players { try await dbA.write(.savePlayer(p)) }
        var round = try await dbA.write(
            .createRound(
                courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        round = try await dbA.write(.startRound(round.id))
        _ = try await engineA.syncNow()
        let runA = engineA.launch()

        // 1. With the poke socket.
        let (dbB, engineB) = try await device("B")
        _ = try await engineB.syncNow()
        var standings = StandingsEngine()
        let withSocket = try await measure(
            dbA, engineA, dbB, engineB, round: round, samples: latencySamples, spacing: 0,
            standings: &standings)
        log("sync: \(withSocket.count) samples with the poke socket")

        // 2. Socket blocked: device C only polls (≤ 5 s with an active round).
        let (dbC, engineC) = try await device("C", live: false)
        _ = try await engineC.syncNow()
        let polled = try await measure(
            dbA, engineA, dbC, engineC, round: round, samples: 120, spacing: 0.27,
            standings: &standings)
        log("sync: \(polled.count) samples polling only; max \(Int(polled.max() ?? 0)) ms")
        await runA.stop()

        // 3. Recovery: 500 scores queued offline on D, then D reconnects (engine start)
        //    until E, live, has every one of them.
        let (dbD, engineD) = try await device("D")
        let (dbE, engineE) = try await device("E")
        _ = try await engineD.syncNow()
        _ = try await engineE.syncNow()
        let created = try await dbD.write(
            .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        let recoveryRound = try await dbD.write(.startRound(created.id))
        var queued = 0
        outer: for hole in 1...18 {
            for p in recoveryRound.participants {
                try await dbD.write(
                    .recordScore(
                        ScoreEntry(roundID: recoveryRound.id, participantID: p.id, hole: hole, strokes: 3, reportedBy: p.id)))
                queued += 1
                if queued % 5 == 0 {  // corrections too
                    try await dbD.write(
                        .recordScore(
                            ScoreEntry(roundID: recoveryRound.id, participantID: p.id, hole: hole, strokes: 4, reportedBy: p.id)))
                    queued += 1
                }
                if queued >= 500 { break outer }
            }
        }
        let changesE = engineE.changes()
        let runE = engineE.launch()
        try await Task.sleep(nanoseconds: 300_000_000)  // E's socket is up
        let recoveryStart = nowNs()
        let runD = engineD.launch()
        var received = 0
        for await _ in changesE {
            received = await (try? dbE.read(.events(round: recoveryRound.id)).count) ?? 0
            if received >= queued { break }
        }
        let recoveryMs = Double(nowNs() - recoveryStart) / 1e6
        await runD.stop()
        await runE.stop()
        log("sync: \(queued) queued scores recovered in \(Int(recoveryMs)) ms")

        // 4. Ingest: 10,000 events in pushes of 500, over HTTP, one client.
        let ingest = try await ingestRate(server: server, admin: admin, course: course, players: players)
        log("sync: ingest \(Int(ingest)) events/s")
        await server.stop()

        return Figures([
            "p50_ms": round3(percentile(withSocket, 50)),
            "p99_ms": round3(percentile(withSocket, 99)),
            "p99_ms_no_websocket": round3(percentile(polled, 99)),
            "recovery_500_ms": round3(recoveryMs),
            "ingest_per_s": ingest.rounded(),
        ])
    }

    /// Scores on A, `spacing` seconds apart (0: one at a time, each waited for), and the
    /// milliseconds until `receiver` has each one and has recomputed the standings.
    static func measure(
        _ dbA: HyzerDatabase, _ engineA: SyncEngine, _ dbB: HyzerDatabase, _ engineB: SyncEngine,
        round: Round, samples: Int, spacing: Double, standings: inout StandingsEngine
    ) async throws -> [Double] {
        let changes = engineB.changes()
        let runB = engineB.launch()
        try await Task.sleep(nanoseconds: 300_000_000)  // socket up (when enabled)
        var iterator = changes.makeAsyncIterator()
        var sent: [UUID: UInt64] = [:]
        var latencies: [Double] = []
        var cell = 0
        func scoreOne() throws {
            let participant = round.participants[cell % round.participants.count]
            let hole = 1 + (cell / round.participants.count) % 18
            cell += 1
            let start = nowNs()
            let recorded = try dbA.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: participant.id, hole: hole,
                        strokes: 2 + cell % 4, reportedBy: participant.id)))
            engineA.localDataChanged()
            sent[recorded.event.id] = start
        }
        func collect() throws {
            let snapshot = try dbB.read(.snapshot(round: round.id))
            _ = standings.recompute(round: snapshot.round, course: snapshot.course, events: snapshot.events, trigger: .remoteSync)
            let now = nowNs()
            let present = Set(snapshot.events.map(\.id))
            for (id, start) in sent where present.contains(id) {
                latencies.append(Double(now - start) / 1e6)
                sent[id] = nil
            }
        }
        if spacing == 0 {
            for _ in 0..<samples {
                try scoreOne()
                while !sent.isEmpty {
                    guard await iterator.next() != nil else { break }
                    try collect()
                }
            }
        } else {
            // Scores keep coming at a steady pace while the receiver polls the server;
            // its commits are noticed within 5 ms (PRAGMA data_version).
            let monitor = try ChangeMonitor(database: dbB)
            var written = 0
            var nextWrite = nowNs()
            let giveUp = nowNs() + UInt64((Double(samples) * spacing + 30) * 1e9)
            while (written < samples || !sent.isEmpty) && nowNs() < giveUp {
                if written < samples && nowNs() >= nextWrite {
                    try scoreOne()
                    written += 1
                    nextWrite += UInt64(spacing * 1e9)
                }
                try await Task.sleep(nanoseconds: 5_000_000)
                if try monitor.poll() { try collect() }
            }
            if !sent.isEmpty { throw BenchError("\(sent.count) scores never reached the polling device") }
        }
        await runB.stop()
        return latencies
    }

    static func ingestRate(server: RunningServer, admin: String, course: Course, players: [Player]) async throws -> Double {
        let deviceID = "bench-ingest"
        let clock = SystemClock()
        let token = try await SyncClient.enroll(server: server.baseURL, groupToken: admin, deviceID: deviceID, name: "ingest")
            .deviceToken
        let client = SyncClient(
            link: ServerLink(
                serverURL: server.baseURL, groupID: "", groupName: "", deviceID: deviceID,
                deviceName: "ingest", deviceToken: token, enrolledAt: clock.date))
        var batches: [[SyncRecord]] = []
        var total = 0
        var setup: [SyncRecord] = [.course(CourseRecord(course, version: UUID(), updatedAt: 1))]
        var rounds: [Round] = []
        for _ in 0..<12 {
            var r = Round(courseID: course.id, organizerID: players[0].id, createdAt: clock.date)
            for p in players { try r.add(.registered(p)) }
            try r.start(at: clock.date)
            rounds.append(r)
            setup.append(.round(RoundRecord(r, version: UUID(), updatedAt: 1)))
        }
        _ = try await client.push(setup)
        var batch: [SyncRecord] = []
        for r in rounds {
            for hole in 1...18 {
                for p in r.participants {
                    let first = ScoreEvent(
                        roundID: r.id, participantID: p.id, hole: hole, strokes: 3, reportedBy: p.id, deviceID: deviceID,
                        createdAt: clock.date)
                    batch.append(.scoreEvent(ScoreEventRecord(first)))
                    if (hole + p.name.count) % 4 == 0 {
                        batch.append(
                            .scoreEvent(
                                ScoreEventRecord(
                                    ScoreEvent(
                                        roundID: r.id, participantID: p.id, hole: hole, strokes: 4, supersedes: [first.id],
                                        reportedBy: p.id, deviceID: deviceID, createdAt: clock.date))))
                    }
                    if batch.count >= SyncProtocol.maxPushRecords - 1 {
                        batches.append(batch)
                        total += batch.count
                        batch = []
                    }
                }
            }
        }
        let start = nowNs()
        for b in batches {
            let response = try await client.push(b)
            guard response.results.allSatisfy({ $0.status == .created }) else {
                throw BenchError("ingest: a record was not created")
            }
        }
        let seconds = Double(nowNs() - start) / 1e9
        log("sync: ingested \(total) events in \(batches.count) pushes in \(String(format: "%.2f", seconds)) s")
        return Double(total) / seconds
    }
}
