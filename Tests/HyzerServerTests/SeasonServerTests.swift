import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Issue 37 on the server, on both backends: a season (`season`, protocol 4) is accepted
/// only in a sane shape, a deletion is final, and a device at protocol 3 never gets one in
/// a pull page.
@Suite struct SeasonServerTests {
    func season(
        _ name: String = "2026", at seconds: Double = 300, rule: Season.Rule = .pointsByPlace([10, 8, 6])
    )
        throws -> SeasonRecord
    {
        SeasonRecord(
            try Season(name: name, from: "2026-01-01", to: "2026-12-31", rule: rule), version: UUID(), updatedAt: seconds)
    }

    @Test(arguments: Backend.allCases) func aSaneSeasonIsAcceptedAndABadOneSaysWhy(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let good = try season(rule: .averageToPar(minimumRounds: 3))
        let accepted = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: [.season(good)]).results
        #expect(accepted.map(\.status) == [.created], "\(accepted)")

        var twoRules = try season()
        twoRules.bestRounds = 4
        var noRule = try season()
        noRule.points = nil
        var backwards = try season()
        backwards.to = "2025-12-31"
        var badDay = try season()
        badDay.from = "spring"
        var control = try season()
        control.name = "Summer\u{0007}"
        var hugeTable = try season()
        hugeTable.points = Array(repeating: 1, count: 101)
        var negative = try season()
        negative.points = [10, -1]
        var tooMany = try season()
        (tooMany.points, tooMany.bestRounds) = (nil, 10_000)
        let refused = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: [twoRules, noRule, backwards, badDay, control, hugeTable, negative, tooMany].map { .season($0) }
        ).results
        #expect(refused.allSatisfy { $0.status == .rejected }, "\(refused)")
        let reasons = refused.map { $0.reason ?? "" }
        #expect(reasons[0].contains("exactly one of points"))
        #expect(reasons[1].contains("exactly one of points"))
        #expect(reasons[2].contains("ends (2025-12-31) before it starts"))
        #expect(reasons[3].contains("\"spring\" is not a day"))
        #expect(reasons[4].contains("control character"))
        #expect(reasons[5].contains("1 to 100 places"))
        #expect(reasons[6].contains("each 0 to 1000"))
        #expect(reasons[7].contains("between 1 and 520"))
    }

    /// A deletion outranks every other version, whatever the clocks say.
    @Test(arguments: Backend.allCases) func aDeletedSeasonStaysDeleted(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var deleted = try season(at: 400)
        deleted.deleted = true
        var laterEdit = try season("Renamed", at: 900)
        laterEdit.id = deleted.id
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: [.season(deleted), .season(laterEdit)]
        ).results
        #expect(results.allSatisfy { $0.status == .created })
        #expect(SyncRecord.season(deleted).stamp! > SyncRecord.season(laterEdit).stamp!)
    }

    /// Negative control (by hand): with `season`'s `sinceProtocol` at 3, the protocol-3 page
    /// held the season and this test failed.
    @Test(arguments: Backend.allCases) func aDeviceAtProtocol3NeverGetsASeasonInItsPage(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.season(try season())]
        ).results
        let seasonSeq = try #require(results.last?.seq)
        try await h.test { client in
            let device = headers(token: g.token, device: g.device)
            let old = try await client.execute(uri: "/v1/pull?after=0&protocol=3", method: .get, headers: device)
            let oldPage = try decode(PullResponse.self, old)
            #expect(oldPage.records.map(\.record.kind) == [.course, .round])
            #expect(oldPage.next == seasonSeq && !oldPage.hasMore)
            #expect(!String(buffer: old.body).contains("\"season\""))
            let current = try await client.execute(uri: "/v1/pull?after=0&protocol=4", method: .get, headers: device)
            let page = try decode(PullResponse.self, current)
            #expect(page.records.map(\.record.kind) == [.course, .round, .season])
        }
    }
}
