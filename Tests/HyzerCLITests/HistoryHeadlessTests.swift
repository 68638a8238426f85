import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 9 item 4 with the real binaries: 30 completed rounds (and one discarded) in a data
/// directory, browsed at a headless kiosk (list → round → player and back) and listed by
/// `hyzer history`.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter HistoryHeadlessTests` also copies
/// `history.png`, `history-round.png`, `history-player.png` and `history-holes.png` there.
@Suite(.serialized) struct HistoryHeadlessTests {
    struct Club {
        let dir: URL
        /// Completed rounds with scores, newest first, with their winners.
        var rounds: [(id: UUID, course: String, winners: [String], players: [String])] = []
        var discarded: UUID?
    }

    /// `hyzer init`, then 30 weekly rounds on the seeded courses, each finished; the newest
    /// is a tie. One more round is discarded (no scores) and must show nowhere.
    static func club(_ label: String) async throws -> Club {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-history-\(label)-\(UUID())")
        let initialized = try await Binary.run("hyzer", ["init", "--data", dir.path])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        var club = Club(dir: dir)
        let db = try HyzerDatabase(directory: dir)
        let courses = try await db.read(.courses).filter { $0.holeCount == 9 }
        let names = ["Ana", "Ben", "Chiara", "Dmitri", "Eun-ji", "Femi", "Gus"]
        let players = try names.map { try Player(displayName: $0) }
        for p in players { try await db.write(.savePlayer(p)) }
        for week in 0..<30 {
            let course = courses[week % courses.count]
            let who = (0..<(3 + week % 4)).map { players[(week + $0) % players.count] }
            let date = Date(timeIntervalSince1970: 1_750_000_000 + Double(week) * 7 * 86_400)
            let created = try await db.write(
                .createRound(courseID: course.id, organizerID: who[0].id, participants: who.map(Participant.registered), at: date)
            )
            let round = try await db.write(.startRound(created.id, at: date))
            for (i, p) in who.enumerated() {
                for hole in course.holes {
                    // The first player wins (with the second in the newest round, a tie): par
                    // everywhere but a birdie on 3; the others lose a stroke on 1 and vary on 3
                    // and 7. The last player of every third round leaves after hole 5 (DNF).
                    if week % 3 == 0, i == who.count - 1, hole > 5 { continue }
                    let par = course.par(of: hole) ?? 3
                    let leader = i == 0 || (week == 29 && i == 1)
                    let strokes =
                        switch hole {
                        case 1: leader ? par : par + 1
                        case 3: leader ? par - 1 : par + (i + week) % 3 - 1
                        case 7: leader ? par : par + (i * week) % 2
                        default: par
                        }
                    try await db.write(
                        .recordScore(
                            ScoreEntry(
                                roundID: round.id, participantID: p.id, hole: hole, strokes: strokes,
                                reportedBy: who[0].id), at: date))
                }
            }
            _ = try await db.write(.finishRound(round.id, at: date.addingTimeInterval(5_400)))
            let standings = try await db.read(.snapshot(round: round.id)).standings
            club.rounds.insert(
                (round.id, course.name, standings.rows.filter { $0.position == 1 }.map(\.name), who.map(\.displayName)),
                at: 0)
        }
        let created = try await db.write(
            .createRound(
                courseID: courses[0].id, organizerID: players[0].id, participants: [.registered(players[0])],
                at: Date(timeIntervalSince1970: 1_790_000_000)))
        let mistake = try await db.write(.startRound(created.id))
        _ = try await db.write(.discardRound(mistake.id, at: Date(timeIntervalSince1970: 1_790_000_100)))
        club.discarded = mistake.id
        return club
    }

    @Test func theKioskBrowsesHistoryListRoundPlayerAndBack() async throws {
        let club = try await Self.club("kiosk")
        defer { try? FileManager.default.removeItem(at: club.dir) }
        // No round in progress: the menu is Start a new round, Reduce motion, History, …
        // 20 detents down the list passes the first page (12): the next is read on the way.
        let script = """
            expect-screen board
            long-press
            expect-screen menu
            turn 2
            press
            expect-screen history
            snapshot history
            turn 20
            wait 400
            expect-screen history
            turn -20
            wait 400
            press
            expect-screen history-round
            snapshot history-round
            turn 1
            press
            expect-screen history-player
            turn 4
            wait 400
            snapshot history-holes
            long-press
            expect-screen history-round
            long-press
            expect-screen history
            long-press
            expect-screen menu

            """
        let scriptURL = club.dir.appendingPathComponent("history.txt")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", club.dir.path, "--headless", "--size", "1280x720", "--script", scriptURL.path,
                "--snapshots", club.dir.appendingPathComponent("shots").path,
            ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let images = run.stdout.split(separator: "\n").map(String.init)
        // The player's card as it opens (the automatic snapshot) and turned to hole 5.
        try HeadlessJourney.check(["history", "history-round", "history-player", "history-holes"], in: images)
    }

    @Test func hyzerHistoryListsNewestFirstAsJSONAndText() async throws {
        let club = try await Self.club("cli")
        defer { try? FileManager.default.removeItem(at: club.dir) }
        let json = try await Binary.run("hyzer", ["history", "--json", "--data", club.dir.path])
        #expect(json.status == 0, "\(json.stderr)")
        struct Line: Decodable {
            var id: UUID
            var completedAt: String
            var course: String
            var winners: [String]
            var players: [String]
        }
        let lines = try JSONDecoder().decode([Line].self, from: Data(json.stdout.utf8))
        #expect(lines.map(\.id) == club.rounds.map(\.id), "every scored round, newest first, none discarded")
        #expect(!lines.contains { $0.id == club.discarded })
        #expect(lines.map(\.winners) == club.rounds.map(\.winners))
        #expect(lines.first?.winners.count == 2, "the newest round is a tie")
        #expect(lines.dropFirst().allSatisfy { $0.winners.count == 1 })
        #expect(lines.map(\.players) == club.rounds.map(\.players))
        #expect(lines.map(\.course) == club.rounds.map(\.course))
        #expect(
            lines.first.flatMap { try? ISO8601Time.date(from: $0.completedAt) }
                == Date(timeIntervalSince1970: 1_750_000_000 + 29 * 7 * 86_400 + 5_400))

        let limited = try await Binary.run("hyzer", ["history", "--limit", "3", "--data", club.dir.path])
        #expect(limited.status == 0, "\(limited.stderr)")
        let rows = limited.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 4, "a header and three rounds: \(rows)")
        #expect(rows.first?.hasPrefix("DATE") == true)
        for (row, round) in zip(rows.dropFirst(), club.rounds.prefix(3)) {
            #expect(row.hasSuffix(round.id.uuidString), "\(row)")
            #expect(row.contains(round.course))
        }
        #expect(rows[1].contains(" (tie)"), "the newest round is a tie: \(rows[1])")
    }
}
