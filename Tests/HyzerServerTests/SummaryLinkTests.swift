import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// A finished round's summary page (issue 11 item 3): the kiosk's summary card asks for a
/// link with its device token; the link's token reads that round's summary and nothing else.
/// The page itself is tested in a real Chromium (Tests/Browser/summary.py), the QR code the
/// kiosk draws with zbarimg (KioskAppTests/ShareQRTests).
@Suite struct SummaryLinkTests {
    static func link(_ response: TestResponse) throws -> String {
        let path = try decode(SummaryLink.self, response).path
        #expect(path.hasPrefix("/s/hzs_"))
        return String(path.dropFirst(3))
    }

    @Test(arguments: Backend.allCases) func aLinkReadsItsRoundsSummaryCardByCard(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture(status: .active)
        // Pine Hollow, par 3 a hole, 9 holes: Nate 2 on hole 1, Mike (a guest) 4 and 3; then
        // the round is finished early.
        var finished = f.round
        (finished.status, finished.version, finished.updatedAt, finished.completedAt) = (.completed, UUID(), 400, 400)
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: f.setupRecords + [
                .scoreEvent(f.event(0, hole: 1, strokes: 2)), .scoreEvent(f.event(1, hole: 1, strokes: 4)),
                .scoreEvent(f.event(1, hole: 2, strokes: 3)), .round(finished),
            ])
        try await h.test { client in
            let made = try await client.execute(
                uri: "/v1/rounds/\(f.round.id)/summary-link", method: .post, headers: headers(token: g.token))
            #expect(made.status == .created && made.headers[.cacheControl] == "no-store")
            let token = try Self.link(made)
            let read = try await client.execute(uri: "/v1/summaries/\(token)", method: .get, headers: headers(token: nil))
            #expect(read.status == .ok)
            let summary = try decode(RoundSummary.self, read)
            #expect(summary.group.name == "League" && summary.round.id == f.round.id && summary.round.status == "completed")
            #expect(summary.pars == Array(repeating: 3, count: 9) && summary.organizer == "Nate")
            // The board's own rules rank it (a finished round: both DNF, unplayed holes empty).
            #expect(summary.round.rows.map(\.name) == ["Nate", "Mike"])
            #expect(summary.cards.map(\.name) == ["Nate", "Mike"] && summary.cards[1].guest)
            #expect(summary.cards[0].strokes == [2] + Array(repeating: nil, count: 8))
            #expect(summary.cards[1].strokes.prefix(2) == [4, 3] && summary.cards[1].toPar.prefix(2) == [1, 0])
            // An ordinary round is no league night's card: its page is the round's alone.
            #expect(summary.night == nil && summary.card == nil)
        }
    }

    @Test(arguments: Backend.allCases) func aLinkForARoundStillOnItsWayAsksThePageToWait(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture(status: .completed)
        try await h.test { client in
            // The kiosk asks as the round finishes; its push may not have arrived.
            let token = try Self.link(
                try await client.execute(
                    uri: "/v1/rounds/\(f.round.id)/summary-link", method: .post, headers: headers(token: g.token)))
            let early = try await client.execute(uri: "/v1/summaries/\(token)", method: .get, headers: headers(token: nil))
            #expect(early.status == .accepted && early.headers[.retryAfter] == "3")
            _ = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords)
            let later = try await client.execute(uri: "/v1/summaries/\(token)", method: .get, headers: headers(token: nil))
            #expect(later.status == .ok)
        }
    }

    /// Negative controls of the capability: a link reads nothing but its round, needs a
    /// device's token to be made, and another group's round stays out of reach even through
    /// a link made for its id.
    @Test(arguments: Backend.allCases) func aLinkReadsItsRoundAndNothingElse(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let other = try await h.group("Other league")
        let f = try Fixture(status: .completed)
        _ = try await h.storage.push(groupID: other.groupID, deviceID: other.device, records: f.setupRecords)
        let view = try await h.storage.createViewToken(groupID: g.groupID)
        try await h.test { client in
            let uri = "/v1/rounds/\(f.round.id)/summary-link"
            for token in [nil, view] {
                let refused = try await client.execute(uri: uri, method: .post, headers: headers(token: token))
                #expect(refused.status == .unauthorized)
            }
            let bad = try await client.execute(
                uri: "/v1/rounds/not-a-round/summary-link", method: .post, headers: headers(token: g.token))
            #expect(bad.status == .badRequest)
            // g's device asks for a link to a round of `other`'s: the link is g's, and g has
            // no such round, so it never shows `other`'s.
            let token = try Self.link(try await client.execute(uri: uri, method: .post, headers: headers(token: g.token)))
            let read = try await client.execute(uri: "/v1/summaries/\(token)", method: .get, headers: headers(token: nil))
            #expect(read.status == .accepted)
            // A summary token is no device token and no view token.
            let pull = try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: token, device: g.device))
            let board = try await client.execute(
                uri: "/v1/groups/\(g.groupID)/board", method: .get, headers: headers(token: token))
            #expect(pull.status == .unauthorized && board.status == .unauthorized)
            let unknown = try await client.execute(
                uri: "/v1/summaries/hzs_made-up", method: .get, headers: headers(token: nil))
            #expect(unknown.status == .notFound && errorMessage(unknown).contains("unknown or revoked"))
            // The other group's own link reads it.
            let theirs = try Self.link(
                try await client.execute(uri: uri, method: .post, headers: headers(token: other.token)))
            let shown = try await client.execute(uri: "/v1/summaries/\(theirs)", method: .get, headers: headers(token: nil))
            #expect(shown.status == .ok)
            #expect(try decode(RoundSummary.self, shown).group.id == other.groupID)

            // Revoked with the group's board links (`hyzer-server group board-unlink`).
            #expect(try await h.storage.revokeViewTokens(groupID: other.groupID) == 1)
            let revoked = try await client.execute(uri: "/v1/summaries/\(theirs)", method: .get, headers: headers(token: nil))
            #expect(revoked.status == .notFound)
            #expect(try await h.storage.summaryRound(token: token)?.groupID == g.groupID, "g's link untouched")
        }
    }
}
