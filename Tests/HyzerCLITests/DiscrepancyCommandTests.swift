import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 9 item 7: `hyzer discrepancies`, `hyzer resolve` and `hyzer round discard`, run as
/// the real binary on a real data directory.
@Suite(.serialized) struct DiscrepancyCommandTests {
    static let phone = "5e1f0c2a-phone"

    /// A demo round (Nate, Mike, Jake through hole 2) where a phone disagrees with Nate and
    /// Mike on hole 2, as a sync would bring it.
    static func disputed() async throws -> HeadlessJourney {
        let journey = try await HeadlessJourney.demo("cli-disputes", players: 3, holesPlayed: 2)
        let db = try HyzerDatabase(directory: journey.dir)
        let snapshot = try await db.read(.snapshot(round: journey.roundID))
        let events = snapshot.round.participants.prefix(2).map { participant in
            ScoreEvent(
                roundID: journey.roundID, participantID: participant.id, hole: 2,
                strokes: snapshot.scorecard.value(participant: participant.id, hole: 2)! + 1,
                reportedBy: participant.id, deviceID: phone, createdAt: db.clock.date)
        }
        _ = try await db.write(.importEvents(events))
        return journey
    }

    @Test func listsEachOpenCellWithItsSources() async throws {
        let journey = try await Self.disputed()
        defer { journey.remove() }
        let dir = journey.dir.path
        let local = try HyzerDatabase(directory: journey.dir).deviceID

        let text = try await Binary.run("hyzer", ["discrepancies", "--data", dir])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Nate, hole 2:") && text.stdout.contains("Mike, hole 2:"), "\(text.stdout)")
        #expect(text.stdout.contains("on device \(Self.phone)") && text.stdout.contains("(this one)"), "\(text.stdout)")

        let json = try await Binary.run("hyzer", ["discrepancies", journey.roundID.uuidString, "--json", "--data", dir])
        #expect(json.status == 0, "\(json.stderr)")
        let cells = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(cells.count == 2)
        for cell in cells {
            let sources = try #require(cell["sources"] as? [[String: Any]])
            #expect(Set(sources.compactMap { $0["device"] as? String }) == [Self.phone, local])
            let values = try #require(cell["values"] as? [Int])
            #expect(Set(sources.compactMap { $0["strokes"] as? Int }) == Set(values))
            #expect(sources.allSatisfy { ($0["at"] as? String)?.hasSuffix("Z") == true && $0["reportedBy"] is String })
            #expect(cell["hole"] as? Int == 2)
        }
        // Every active round when none is named; a round in none is a clear failure.
        let unknown = try await Binary.run("hyzer", ["discrepancies", UUID().uuidString, "--data", dir])
        #expect(unknown.status != 0 && unknown.stderr.contains("is not in"), "\(unknown.stderr)")
    }

    @Test func resolveWritesOneResolutionAndRefusesBadInput() async throws {
        let journey = try await Self.disputed()
        defer { journey.remove() }
        let dir = journey.dir.path
        let round = journey.roundID.uuidString
        let before = try await HyzerDatabase(directory: journey.dir).read(.snapshot(round: journey.roundID))
        let nate = before.round.participants[0]

        // Bad input: a clear line, a non-zero exit, nothing saved.
        for (arguments, message) in [
            (["resolve", round, "Nate", "3", "4"], "Nate has no open discrepancy on hole 3"),
            (["resolve", round, "Nate", "2", "11"], "between 1 and 10"),
            (["resolve", round, "Zed", "2", "4"], "nobody called \"Zed\""),
            (["resolve", "not-a-round", "Nate", "2", "4"], "is not a round id"),
        ] {
            let run = try await Binary.run("hyzer", arguments + ["--data", dir])
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(
            try await HyzerDatabase(directory: journey.dir).read(.events(round: journey.roundID)).count == before.events.count)

        // By name; the value need not be one of those in dispute. Not enrolled: saved, said so.
        let run = try await Binary.run("hyzer", ["resolve", round, "nate", "2", "7", "--data", dir])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("resolved Nate, hole 2: 7 (supersedes 2)"), "\(run.stdout)")
        #expect(run.stdout.contains("not enrolled"), "\(run.stdout)")

        let after = try await HyzerDatabase(directory: journey.dir).read(.snapshot(round: journey.roundID))
        let resolution = try #require(after.events.first { $0.isResolution })
        #expect(Set(resolution.supersedes) == Set(before.scorecard.resolution(participant: nate.id, hole: 2).leaves.map(\.id)))
        #expect(resolution.reportedBy == after.round.organizerID, "reported as the kiosk reports it")
        #expect(after.scorecard.value(participant: nate.id, hole: 2) == 7)
        #expect(after.scorecard.discrepancies.map(\.cell.participantID) == [before.round.participants[1].id])
        let left = try await Binary.run("hyzer", ["discrepancies", "--data", dir])
        #expect(!left.stdout.contains("Nate, hole 2") && left.stdout.contains("Mike, hole 2"), "\(left.stdout)")
    }

    /// `hyzer demo --disputes N`: N open cells for the resolve screen's pictures, each a
    /// statement of another device against this one's; too many is refused before anything
    /// is written.
    @Test func demoDisputesOpenThatManyCells() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-demo-disputes-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try await Binary.run("hyzer", ["init", "--data", dir.path])
        let made = try await Binary.run(
            "hyzer", ["demo", "--players", "3", "--holes-played", "2", "--disputes", "2", "--data", dir.path])
        #expect(made.status == 0, "\(made.stderr)")
        let round = try #require(made.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })
        let snapshot = try await HyzerDatabase(directory: dir).read(.snapshot(round: round))
        #expect(snapshot.scorecard.discrepancies.count == 2)
        #expect(snapshot.events.filter { $0.deviceID == HyzerDatabase.demoPhone }.count == 2)
        let refused = try await Binary.run("hyzer", ["demo", "--players", "2", "--disputes", "3", "--data", dir.path])
        #expect(refused.status != 0 && refused.stderr.contains("--disputes must be between 0 and --players"))
        #expect(try await HyzerDatabase(directory: dir).read(.activeRounds).count == 1, "nothing written for the refused one")
    }

    @Test func discardDropsAnEmptyRoundAndRefusesOneWithScores() async throws {
        let journey = try await HeadlessJourney.demo("cli-discard", players: 2, holesPlayed: 1)
        defer { journey.remove() }
        let dir = journey.dir.path

        let refused = try await Binary.run("hyzer", ["round", "discard", journey.roundID.uuidString, "--data", dir])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("has scores, so it cannot be discarded"), "\(refused.stderr)")
        #expect(try await HyzerDatabase(directory: journey.dir).read(.round(id: journey.roundID))?.status == .active)

        // A second card started by mistake: no scores, so it goes.
        let mistake: Round
        do {
            let db = try HyzerDatabase(directory: journey.dir)
            let played = try await db.read(.snapshot(round: journey.roundID)).round
            let created = try await db.write(
                .createRound(
                    courseID: played.courseID, organizerID: played.organizerID, participants: played.participants))
            mistake = try await db.write(.startRound(created.id))
        }
        let discarded = try await Binary.run("hyzer", ["round", "discard", mistake.id.uuidString, "--data", dir])
        #expect(discarded.status == 0, "\(discarded.stderr)")
        #expect(discarded.stdout.contains("discarded round \(mistake.id.uuidString)"))
        let db = try HyzerDatabase(directory: journey.dir)
        #expect(try await db.read(.activeRounds).map(\.id) == [journey.roundID], "the played round stays; the mistake is gone")
        #expect(try await db.read(.history()).allSatisfy { $0.id != mistake.id }, "history leaves a discarded round out")

        let garbage = try await Binary.run("hyzer", ["round", "discard", "nope", "--data", dir])
        #expect(garbage.status != 0 && garbage.stderr.contains("is not a round id"), "\(garbage.stderr)")
    }
}
