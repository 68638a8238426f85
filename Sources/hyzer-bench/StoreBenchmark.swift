import Foundation
import HyzerKit
import HyzerStore

/// NFR21's 5-year projection: 250 rounds × 7 participants × 18 holes plus ~10%
/// corrections, written through the store's own paths, then sized and read back.
enum StoreBenchmark {
    static func run(in workspace: Workspace) async throws -> Figures {
        let dir = workspace.url
        let db = try HyzerDatabase(directory: dir)
        let writeStart = nowNs()
        let (roundIDs, eventCount) = try populate(db)
        let writeSeconds = Double(nowNs() - writeStart) / 1e9
        return try measure(db, roundIDs: roundIDs, eventCount: eventCount, writeSeconds: writeSeconds)
    }

    /// The projection written into `db`: the rounds' ids, oldest first, and how many events.
    static func populate(_ db: HyzerDatabase) throws -> (roundIDs: [UUID], events: Int) {
        let course = try Course(name: "Projection Park", holeCount: 18, exceptions: [5: 4, 12: 5])
        try db.write(.saveCourse(course))
        var rng = SeededGenerator(seed: 5)
        let players = try (0..<10).map { try Player(displayName: "Player \($0)") }
        for p in players { try db.write(.savePlayer(p)) }
        let devices = (0..<4).map { _ in UUID().uuidString.lowercased() }
        // Every score names its device (issue 14), as a kiosk's and a phone's do.
        let deviceNames = Dictionary(
            uniqueKeysWithValues: zip(devices, ["Kiosk clubhouse", "Nate's phone", "Mike's phone", "Jake's phone"]))

        var roundIDs: [UUID] = []
        var eventCount = 0
        for r in 0..<250 {
            let who = players.shuffled(using: &rng).prefix(7).map(Participant.registered)
            let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(r) * 7 * 86_400)
            let created = try db.write(
                .createRound(courseID: course.id, organizerID: who[0].id, participants: Array(who), at: date))
            let round = try db.write(.startRound(created.id, at: date))
            var events: [ScoreEvent] = []
            for hole in course.holes {
                for p in who {
                    let device = devices[Int.random(in: 0..<devices.count, using: &rng)]
                    let strokes = course.pars[hole - 1] + Int.random(in: -1...2, using: &rng)
                    let e = ScoreEvent(
                        roundID: round.id, participantID: p.id, hole: hole, strokes: strokes,
                        reportedBy: who[0].id, deviceID: device, createdAt: date, deviceName: deviceNames[device])
                    events.append(e)
                    if Int.random(in: 0..<10, using: &rng) == 0 {
                        events.append(
                            ScoreEvent(
                                roundID: round.id, participantID: p.id, hole: hole,
                                strokes: strokes + 1, supersedes: [e.id], reportedBy: who[0].id,
                                deviceID: device, createdAt: date, deviceName: deviceNames[device]))
                    }
                }
            }
            let result = try db.write(.importEvents(events))
            guard result.rejected.isEmpty else { throw BenchError("rejected: \(result.rejected.values.first!)") }
            eventCount += result.inserted.count
            _ = try db.write(.finishRound(round.id, at: date.addingTimeInterval(7200)))
            roundIDs.append(round.id)
        }
        return (roundIDs, eventCount)
    }

    static func measure(_ db: HyzerDatabase, roundIDs: [UUID], eventCount: Int, writeSeconds: Double) throws -> Figures {
        var rng = SeededGenerator(seed: 6)
        let bytes = Double(try db.domainSizeOnDisk())

        var historySamples: [Double] = []
        for _ in 0..<30 {
            let start = nowNs()
            let history = try db.read(.history())
            historySamples.append(Double(nowNs() - start) / 1e6)
            guard history.count == 250 else { throw BenchError("history has \(history.count) rounds") }
        }
        var openSamples: [Double] = []
        for _ in 0..<100 {
            let id = roundIDs[Int.random(in: 0..<roundIDs.count, using: &rng)]
            let start = nowNs()
            let snapshot = try db.read(.snapshot(round: id))
            let standings = snapshot.standings
            openSamples.append(Double(nowNs() - start) / 1e6)
            guard standings.rows.count == 7 else { throw BenchError("round has \(standings.rows.count) rows") }
        }
        log(
            "store: \(eventCount) events in 250 rounds written in \(String(format: "%.1f", writeSeconds)) s; file \(Int(bytes)) bytes"
        )
        return Figures([
            "size_mb": round3(bytes / 1_048_576),
            "list_history_ms": round3(percentile(historySamples, 50)),
            "open_round_ms": round3(percentile(openSamples, 50)),
        ])
    }
}
