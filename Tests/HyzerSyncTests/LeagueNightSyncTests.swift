import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Issue 36 item 6 through a real server (loopback, SQLite files): a league night made on
/// the kiosk reaches every device with its cards, its side games and what is entered
/// later, and a server older than league nights holds nothing else up.
@Suite(.serialized) struct LeagueNightSyncTests {
    /// Three cards of three guests on the first seeded 18-hole course, from holes 1, 7, 13.
    static func makeNight(on device: TestDevice, net: Bool = false) throws -> LeagueEvent {
        let course = try #require(try device.db.read(.courses).first { $0.holeCount == 18 })
        let cards = try (0..<3).map { card in
            LeagueNightCard(
                participants: try (0..<3).map { try .guest(named: "P\(card)\($0)") },
                startHole: CardDraw.startHole(card: card, of: 3, holes: 18))
        }
        let event = try device.db.write(
            .createLeagueNight(
                name: "Thursday league", courseID: course.id, organizerID: cards[0].participants[0].id, cards: cards,
                skins: .card, closestToPin: [7], net: net))
        return try device.db.write(.startLeagueNight(event.id))
    }

    /// Issue 37's protocol 5: a night ranked by net waits on the device while its server is
    /// at 4 (which would keep it gross), its cards going at once; once the server says 5
    /// it goes, and a second device has it ranked by net.
    /// Negative control (by hand): with `netNights` never held, the night went to the
    /// protocol-4 server and the pending count was 0: this test failed.
    @Test func aNightRankedByNetWaitsForAServerThatKeepsIt() async throws {
        try await withGroup { group in
            let older = try await group.device("Kiosk", transport: { OlderPeerTransport(client: $0, version: 4) })
            try await older.sync()
            let event = try Self.makeNight(on: older, net: true)
            #expect(try await older.sync().rejected.isEmpty)
            #expect(try await older.db.read(.pendingSyncCount) == 1)
            let feed = try await group.server.storage.pull(groupID: group.groupID, after: 0, limit: 1000)
            #expect(feed.records.filter { $0.record.kind == .round }.count == 3, "the cards went")
            #expect(!feed.records.contains { $0.record.kind == .event })

            let updated = try await older.afterTheServerUpdate()
            #expect(try await updated.db.read(.pendingSyncCount) == 0)
            let phone = try await group.device("Phone")
            try await phone.sync()
            #expect(try await phone.db.read(.leagueNight(id: event.id))?.event.net == true)
        }
    }

    @Test func aNightMadeOnOneDeviceReachesTheOthersWithItsCardsAndWhatIsEnteredLater() async throws {
        try await withGroup { group in
            let kiosk = try await group.device("Kiosk")
            let phone = try await group.device("Phone")
            try await kiosk.sync()  // hears the server's protocol before it has anything new
            let event = try Self.makeNight(on: kiosk)
            let pushed = try await kiosk.sync()
            #expect(pushed.rejected.isEmpty)
            #expect(try await kiosk.db.read(.pendingSyncCount) == 0)
            try await phone.sync()
            let there = try #require(try await phone.db.read(.leagueNight(id: event.id)))
            #expect(there.event.rounds == event.rounds)
            #expect(there.cards.map(\.round.startHole) == [1, 7, 13])
            #expect(there.event.skins == .card && there.event.closestToPin == [.init(hole: 7)])

            // The phone scores on card B and enters the CTP; the kiosk sees both.
            let cardB = there.cards[1].round
            _ = try await phone.db.write(
                .recordScore(
                    ScoreEntry(
                        roundID: cardB.id, participantID: cardB.participants[2].id, hole: 7, strokes: 1,
                        reportedBy: cardB.participants[2].id)))
            _ = try await phone.db.write(.setClosestToPin(event.id, hole: 7, winner: cardB.participants[2].id))
            #expect(try await phone.sync().rejected.isEmpty)
            try await kiosk.sync()
            let back = try #require(try await kiosk.db.read(.leagueNight(id: event.id)))
            #expect(back.event.closestToPin.first?.winner == cardB.participants[2].id)
            #expect(back.results.aces == [.init(participantID: cardB.participants[2].id, hole: 7)])
            #expect(back.results.standings.standings.rows.first?.participantID == cardB.participants[2].id)
            #expect(back.card(of: cardB.participants[2].id)?.letter == "B")
        }
    }

    /// A server that has not said it speaks protocol 3 would refuse a whole push over one
    /// `event` record: the night waits on the device, and its cards and scores go.
    /// Negative control (by hand): with `holding` returning no kinds, the night went out
    /// at once (this server is new enough to take it; an older one would have refused the
    /// whole push) and this test failed.
    @Test func aServerOlderThanLeagueNightsGetsTheCardsAndTheNightWaits() async throws {
        try await withGroup { group in
            let older = try await group.device("Kiosk", transport: { OlderPeerTransport(client: $0) })
            let event = try Self.makeNight(on: older)
            let first = try await older.sync()
            #expect(first.rejected.isEmpty)
            try await older.sync()  // after a pull that said no version
            #expect(try await older.db.read(.pendingSyncCount) == 1)
            let feed = try await group.server.storage.pull(groupID: group.groupID, after: 0, limit: 1000)
            #expect(feed.records.filter { $0.record.kind == .round }.count == 3)
            #expect(!feed.records.contains { $0.record.kind == .event })

            // The server is updated: the same store, a device at protocol 3 again.
            let updated = try await older.afterTheServerUpdate()
            #expect(try await updated.db.read(.pendingSyncCount) == 0)
            let after = try await group.server.storage.pull(groupID: group.groupID, after: 0, limit: 1000)
            #expect(after.records.contains { $0.record.kind == .event && $0.record.id == event.id })
        }
    }
}
