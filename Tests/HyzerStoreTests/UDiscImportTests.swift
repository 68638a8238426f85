import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 37 item 4 in the store: the two hand-written exports (Tests/Fixtures/udisc, one in
/// each header form, with the quirks seen in the wild: a byte-order mark, CRLF, quoted
/// names and courses, doubled quotes, a player who stopped early, 21 holes, rows wider than
/// their round) imported as completed rounds; a second import adds nothing; a bad round is
/// refused with its line and nothing of it is written.
@Suite struct UDiscImportTests {
    static let utc = TimeZone(identifier: "UTC")!

    static func read(_ name: String) throws -> [UDiscReader.Outcome] {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/udisc/\(name).csv"))
        var csv = CSVReader()
        var reader = UDiscReader(timeZone: utc)
        var out: [UDiscReader.Outcome] = []
        for record in csv.feed(data) + csv.finish() { out += reader.add(record.fields, line: record.line) }
        return out + reader.finish()
    }

    static func importAll(
        _ outcomes: [UDiscReader.Outcome], into db: HyzerDatabase, renames: [String: String] = [:]
    ) throws
        -> [UDiscImportOutcome]
    {
        try outcomes.compactMap { outcome in
            guard case .round(let round) = outcome else { return nil }
            return try db.write(.importUDiscRound(round, renames: renames))
        }
    }

    @Test func theOlderFormImportsItsRoundsAndRefusesTheBrokenOne() throws {
        let s = try TempStore()
        let outcomes = try Self.read("older")
        let refused = outcomes.compactMap { if case .refused(let p) = $0 { p } else { nil } }
        #expect(refused == [UDisc.Problem(line: 9, reason: "Nate's hole 3 is \"three\", not a number")])
        let done = try Self.importAll(outcomes, into: s.db, renames: ["Mike \"Big Arm\" O'Neil": "Mike"])
        #expect(done.count == 2)
        #expect(done.allSatisfy { if case .imported = $0 { true } else { false } })
        // Players by name, after the rename: Nate, Mike, Jake; courses "Course · Layout".
        #expect(try s.db.read(.players).map(\.displayName) == ["Jake", "Mike", "Nate"])
        let courses = try s.db.read(.courses).map(\.name)
        #expect(courses.contains("Maple Hill · Main") && courses.contains("Pine Hollow, East · Blue Tees"))
        // Completed rounds, as history reads them: Jake stopped after 5 holes (a DNF).
        let history = try s.db.read(.historyPage(limit: 10)).lines
        #expect(history.map(\.courseName) == ["Pine Hollow, East · Blue Tees", "Maple Hill · Main"])
        let pine = try s.db.read(.snapshot(round: history[0].roundID))
        #expect(pine.round.status == .completed)
        #expect(pine.round.pars == [3, 4, 3, 3, 3, 3, 3, 3, 3])
        let rows = Dictionary(uniqueKeysWithValues: pine.standings.rows.map { ($0.name, $0) })
        #expect(rows["Nate"]?.strokes == 27 && rows["Nate"]?.toPar == -1)
        #expect(rows["Jake"]?.status == .dnf && rows["Jake"]?.strokes == 17)
        // Its scores say where they came from.
        #expect(pine.events.allSatisfy { $0.deviceID == UDisc.importDeviceID && $0.reportedBy == ScoreEvent.nobody })
        // They sync like everything else: the rounds, the course, the players and the scores are pending.
        let pending = try s.db.read(.changeLedger { try $0.pendingCount() })
        #expect(pending == 2 + 2 + 3 + (9 + 9) + (9 + 5))
    }

    @Test func aSecondImportAddsNothing() throws {
        let s = try TempStore()
        let outcomes = try Self.read("newer")
        #expect(try Self.importAll(outcomes, into: s.db).count == 2)
        let events = try s.eventCount()
        let rounds = try s.db.read(.historyPage(limit: 10)).lines.count
        let again = try Self.importAll(try Self.read("newer"), into: s.db)
        #expect(again.allSatisfy { if case .alreadyThere = $0 { true } else { false } } && again.count == 2)
        #expect(try s.eventCount() == events)
        #expect(try s.db.read(.historyPage(limit: 10)).lines.count == rounds)
        // 21 holes on Ridgeback's long layout: a course of its own; Maple Hill's nine another.
        let ridge = try #require(try s.db.read(.courses).first { $0.name == "Ridgeback · Long 21" })
        #expect(ridge.holeCount == 21 && ridge.pars.suffix(3) == [4, 4, 4])
        // Priya's second round has a score past its 9 holes: refused, line 10.
        let refused = outcomes.compactMap { if case .refused(let p) = $0 { p } else { nil } }
        #expect(refused.map(\.line) == [10])
        #expect(refused.first?.reason.contains("past the round's 9 holes") == true)
    }

    /// A course already there under the export's name is used, with the export's pars for
    /// the round; a name already on the roster (case aside) is that player.
    @Test func anExistingCourseAndPlayerAreMatched() throws {
        let s = try TempStore()
        let maple = try Course(name: "Maple Hill", pars: Array(repeating: 3, count: 9))
        try s.db.write(.saveCourse(maple))
        let sarah = try Player(displayName: "SARAH")
        try s.db.write(.savePlayer(sarah))
        _ = try Self.importAll(try Self.read("newer"), into: s.db)
        let history = try s.db.read(.historyPage(limit: 10)).lines
        let mapleRound = try s.db.read(.snapshot(round: try #require(history.first { $0.courseName == "Maple Hill" }).roundID))
        #expect(mapleRound.round.courseID == maple.id)
        #expect(mapleRound.round.participants.map(\.id).contains(sarah.id))
        #expect(try s.db.read(.players).filter { $0.displayName.lowercased() == "sarah" }.count == 1)
    }

    /// Negative control for "nothing of that round is written": a round whose write fails
    /// halfway (a player taken off the roster) leaves no round, course or score behind.
    @Test func aRoundThatCannotBeWrittenLeavesNothing() throws {
        let s = try TempStore()
        guard case .round(var round) = try Self.read("newer").first else {
            Issue.record("no round")
            return
        }
        // The stable id a new "Nate" would get, taken by a removed player.
        let ghost = try Player(id: StableID.uuid("udisc-player\u{1F}nate"), displayName: "Nate")
        try s.db.write(.savePlayer(ghost))
        try s.db.domain.write { db in
            try db.execute(sql: "UPDATE players SET removed_at = 1 WHERE id = ?", arguments: [ghost.id])
        }
        round.players = round.players.filter { $0.name == "Nate" } + round.players.filter { $0.name != "Nate" }
        #expect(throws: StoreError.self) { try s.db.write(.importUDiscRound(round)) }
        #expect(try s.db.read(.courses).isEmpty)
        #expect(try s.eventCount() == 0)
        #expect(try s.db.read(.historyPage(limit: 10)).lines.isEmpty)
    }
}
