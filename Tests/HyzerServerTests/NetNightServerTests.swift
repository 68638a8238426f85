import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Issue 37's league night ranked by net on the server, on both backends: such a night
/// (protocol 5) is left out of an older device's page, and the web board and the summary
/// page rank it by net with the handicaps a device works out.
@Suite struct NetNightServerTests {
    /// Negative control (by hand): with `SyncController` filtering by the kind alone, the
    /// protocol-4 page held the net night and this failed.
    @Test(arguments: Backend.allCases) func aNightRankedByNetIsLeftOutOfAnOlderDevicesPage(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var w = try SeasonBoardTests.World()
        let gross = try w.round(daysAgo: 1, [(.registered(w.ann), 3)], finished: false)
        let netCard = try w.round(daysAgo: 0, [(.registered(w.bo), 3)], finished: false)
        for (round, net) in [(gross, false), (netCard, true)] {
            let night = try LeagueEvent(
                name: net ? "Net league" : "Gross league", courseID: w.course.id, day: SeasonBoardTests.day(0),
                rounds: [round], createdAt: Date(), net: net)
            w.records.append(.event(EventRecord(night, version: UUID(), updatedAt: 10)))
        }
        let results = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: w.records).results
        #expect(results.allSatisfy { $0.status == .created }, "\(results.filter { $0.status != .created })")
        try await h.test { client in
            let device = headers(token: g.token, device: g.device)
            func nights(_ version: Int) async throws -> [String] {
                let page = try decode(
                    PullResponse.self,
                    try await client.execute(uri: "/v1/pull?after=0&protocol=\(version)", method: .get, headers: device))
                return page.records.compactMap { if case .event(let e) = $0.record { e.name } else { nil } }
            }
            let (older, current) = (try await nights(4), try await nights(5))
            #expect(older == ["Gross league"])
            #expect(current == ["Gross league", "Net league"])
        }
    }

    /// Ann's three rounds on the course before tonight are +4 (handicap +4.0), Bo's E; Dee
    /// has none. Tonight, every hole played: Ann +3 gross is net −1.0, Bo +1 net +1.0, and
    /// Dee +2, ranked gross and marked. The board and the card's summary rank Ann, Bo, Dee;
    /// gross it would be Bo, Dee, Ann.
    /// Negative control (by hand): with the board not filling the handicaps, Bo led.
    @Test(arguments: Backend.allCases) func theBoardAndTheSummaryRankANetNightByNet(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var w = try SeasonBoardTests.World()
        let dee = try Player(displayName: "Dee")
        w.records.append(.player(PlayerRecord(dee, version: UUID(), updatedAt: 1)))
        for days in [3.0, 4, 5] { try w.round(daysAgo: days, [(.registered(w.ann), 7), (.registered(w.bo), 3)]) }
        let card = try w.round(
            daysAgo: 0, [(.registered(w.ann), 6), (.registered(w.bo), 4), (.registered(dee), 5)], finished: false)
        let night = try LeagueEvent(
            name: "Net league", courseID: w.course.id, day: SeasonBoardTests.day(0), rounds: [card], createdAt: Date(),
            net: true)
        w.records.append(.event(EventRecord(night, version: UUID(), updatedAt: 10)))
        let results = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: w.records).results
        #expect(results.allSatisfy { $0.status == .created }, "\(results.filter { $0.status != .created })")

        let view = try await h.storage.createViewToken(groupID: g.groupID)
        try await h.test { client in
            let board = try decode(
                LiveBoard.self,
                try await client.execute(
                    uri: "/v1/groups/\(g.groupID)/board", method: .get, headers: headers(token: view)))
            let shown = try #require(board.nights?.first)
            #expect(shown.net == true)
            #expect(shown.rows.map(\.name) == ["Ann", "Bo", "Dee"])
            #expect(shown.rows.map(\.toPar) == ["-1.0", "+1.0", "+2"])
            #expect(shown.rows.map(\.gross) == ["+3", "+1", nil])
            #expect(shown.rows.map(\.handicap) == ["+4.0", "E", nil])
            #expect(shown.rows.map(\.rankedGross) == [nil, nil, true])

            let made = try await client.execute(
                uri: "/v1/rounds/\(card)/summary-link", method: .post, headers: headers(token: g.token))
            let token = try SummaryLinkTests.link(made)
            let summary = try decode(
                RoundSummary.self,
                try await client.execute(uri: "/v1/summaries/\(token)", method: .get, headers: headers(token: nil)))
            #expect(summary.night?.rows.map(\.name) == ["Ann", "Bo", "Dee"])
            #expect(summary.night?.rows.map(\.toPar) == ["-1.0", "+1.0", "+2"])
        }
    }
}
