import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Issue 37 on the web board, on both backends: between rounds the board carries the table
/// of the season today falls in, computed from the group's finished rounds as a device
/// computes it (guests left out, a merged player counted as whom they became, rounds
/// outside the range not counted), and nothing while a round is played.
@Suite struct SeasonBoardTests {
    struct World {
        var records: [SyncRecord] = []
        let course: Course
        let ann, bo, cy: Player
        init() throws {
            course = try Course(name: "Pine Hollow", holeCount: 9)
            (ann, bo, cy) = (try Player(displayName: "Ann"), try Player(displayName: "Bo"), try Player(displayName: "Cy"))
            records = [.course(CourseRecord(course, version: UUID(), updatedAt: 1))]
            for p in [ann, bo] { records.append(.player(PlayerRecord(p, version: UUID(), updatedAt: 1))) }
            // Cy is Ann under another name: merged into her.
            records.append(
                .player(PlayerRecord(cy, version: UUID(), updatedAt: 1, retirement: PlayerRetirement(mergedInto: ann.id))))
        }

        /// A finished round `daysAgo` days ago; each player's strokes on hole 1, par 3 on the rest.
        @discardableResult
        mutating func round(daysAgo: Double, _ players: [(Participant, Int)], finished: Bool = true) throws -> UUID {
            let start = Date().addingTimeInterval(-daysAgo * 86_400)
            var round = Round(courseID: course.id, organizerID: players[0].0.id, createdAt: start)
            for (p, _) in players { try round.add(p) }
            try round.takePars(of: course)
            try round.start(at: start)
            var events: [SyncRecord] = []
            for (p, strokes) in players {
                for hole in 1...9 {
                    events.append(
                        .scoreEvent(
                            ScoreEventRecord(
                                ScoreEvent(
                                    roundID: round.id, participantID: p.id, hole: hole, strokes: hole == 1 ? strokes : 3,
                                    reportedBy: p.id, deviceID: "dev", createdAt: start.addingTimeInterval(60)))))
                }
            }
            records.append(.round(RoundRecord(round, version: UUID(), updatedAt: start.timeIntervalSince1970)))
            records += events
            if finished {
                round.markAllScored()
                try round.finish(at: start.addingTimeInterval(3_600))
                records.append(.round(RoundRecord(round, version: UUID(), updatedAt: start.timeIntervalSince1970 + 3_600)))
            }
            return round.id
        }
    }

    static func day(_ daysFromNow: Double) -> String { SeasonEvent.day(of: Date().addingTimeInterval(daysFromNow * 86_400)) }

    /// By hand, points 10-8: a week ago Ann 2 on hole 1 beats Bo 3 (Ann 10, Bo 8); two days
    /// ago the guest Sam's 1 is left out, so Cy 3 (who is Ann) and Bo 4 rank 1 and 2 among
    /// the members (Ann 10, Bo 8). Forty days ago is before the season: not counted. Ann 20,
    /// Bo 16.
    @Test(arguments: Backend.allCases) func theBoardCarriesTheSeasonBetweenRounds(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var w = try World()
        let sam = try Participant.guest(named: "Sam")
        try w.round(daysAgo: 40, [(.registered(w.bo), 1), (.registered(w.ann), 5)])
        try w.round(daysAgo: 7, [(.registered(w.ann), 2), (.registered(w.bo), 3)])
        try w.round(daysAgo: 2, [(.registered(w.cy), 3), (.registered(w.bo), 4), (sam, 1)])
        let season = try Season(name: "This month", from: Self.day(-20), to: Self.day(20), rule: .pointsByPlace([10, 8]))
        w.records.append(.season(SeasonRecord(season, version: UUID(), updatedAt: 5)))
        let results = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: w.records).results
        #expect(results.allSatisfy { $0.status == .created }, "\(results.filter { $0.status != .created })")

        let source = try #require(try await h.storage.seasonSource(groupID: g.groupID, day: Self.day(0)))
        let table = try #require(source.table(timeZone: .current))
        #expect(table.name == "This month" && table.events == 2)
        #expect(table.rows.map(\.name) == ["Ann", "Bo"])
        #expect(table.rows.map(\.value) == ["20", "16"])
        #expect(table.rows.map(\.attended) == [2, 2])
        #expect(try await h.storage.seasonSource(groupID: g.groupID, day: Self.day(30)) == nil, "no season then")

        // Through the board's route, as the wall reads it; then a round starts and the
        // table steps aside for it.
        let view = try await h.storage.createViewToken(groupID: g.groupID)
        try await h.test { client in
            let path = "/v1/groups/\(g.groupID)/board"
            let idle = try decode(
                LiveBoard.self, try await client.execute(uri: path, method: .get, headers: headers(token: view)))
            #expect(idle.season == table)
        }
        var playing = w
        playing.records = []
        try playing.round(daysAgo: 0, [(.registered(w.ann), 3), (.registered(w.bo), 3)], finished: false)
        _ = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: playing.records)
        try await h.test { client in
            let path = "/v1/groups/\(g.groupID)/board"
            let live = try decode(
                LiveBoard.self, try await client.execute(uri: path, method: .get, headers: headers(token: view)))
            #expect(live.season == nil && live.rounds.first?.status == "active")
        }
    }

    /// A league night counts once one of its cards is finished, every card ranked together,
    /// as a device counts it: card A (Ann, 2 on hole 1) finished, card B (Bo, par) still in
    /// play; one event, Ann 10 and Bo 8. Negative control (by hand): with the night's
    /// unfinished cards not read, Bo was missing and this failed.
    @Test(arguments: Backend.allCases) func aNightCountsWithAllItsCards(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var w = try World()
        let cardA = try w.round(daysAgo: 1, [(.registered(w.ann), 2)])
        let cardB = try w.round(daysAgo: 1, [(.registered(w.bo), 3)], finished: false)
        let night = try LeagueEvent(
            name: "Thursday league", courseID: w.course.id, day: Self.day(-1), rounds: [cardA, cardB], skins: .off,
            createdAt: Date().addingTimeInterval(-86_400))
        w.records.append(.event(EventRecord(night, version: UUID(), updatedAt: 10)))
        let season = try Season(name: "This month", from: Self.day(-20), to: Self.day(20), rule: .pointsByPlace([10, 8]))
        w.records.append(.season(SeasonRecord(season, version: UUID(), updatedAt: 5)))
        let results = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: w.records).results
        #expect(results.allSatisfy { $0.status == .created }, "\(results.filter { $0.status != .created })")
        let table = try #require(
            try await h.storage.seasonSource(groupID: g.groupID, day: Self.day(0))?.table(timeZone: .current))
        #expect(table.events == 1)
        #expect(table.rows.map(\.name) == ["Ann", "Bo"] && table.rows.map(\.value) == ["10", "8"])
    }
}
