import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Issue 37 item 5 through a real server (loopback, SQLite files): a season set on one
/// device reaches the others, a change and a deletion follow it, and a server older than
/// seasons holds nothing else up.
@Suite(.serialized) struct SeasonSyncTests {
    @Test func aSeasonSetOnOneDeviceReachesTheOthersAndItsChangeAndDeletionFollow() async throws {
        try await withGroup { group in
            let kiosk = try await group.device("Kiosk")
            let phone = try await group.device("Phone")
            try await kiosk.sync()  // hears the server's protocol before it has anything new
            let season = try Season(
                name: "Summer league", from: "2026-05-01", to: "2026-09-30", rule: .bestRounds(8), net: true)
            _ = try await kiosk.db.write(.saveSeason(season))
            #expect(try await kiosk.sync().rejected.isEmpty)
            #expect(try await kiosk.db.read(.pendingSyncCount) == 0)
            try await phone.sync()
            #expect(try await phone.db.read(.seasons) == [season])

            // The phone changes its rule; the kiosk follows. Then the kiosk deletes it.
            var changed = season
            changed.rule = .pointsByPlace([12, 9, 7])
            _ = try await phone.db.write(.saveSeason(changed))
            #expect(try await phone.sync().rejected.isEmpty)
            try await kiosk.sync()
            #expect(try await kiosk.db.read(.seasons) == [changed])
            _ = try await kiosk.db.write(.deleteSeason(season.id))
            #expect(try await kiosk.sync().rejected.isEmpty)
            try await phone.sync()
            #expect(try await phone.db.read(.seasons).isEmpty)
            // A deleted season cannot be changed again, here or anywhere.
            #expect(throws: StoreError.self) { try phone.db.write(.saveSeason(changed)) }
        }
    }

    /// A server at protocol 3 would refuse a whole push over one `season` record: the season
    /// waits on the device, and a round made beside it goes.
    /// Negative control (by hand): with `season`'s `sinceProtocol` at 3, the season went out
    /// to the protocol-3 server and the pending count was 0: this test failed.
    @Test func aServerOlderThanSeasonsGetsTheRestAndTheSeasonWaits() async throws {
        try await withGroup { group in
            let older = try await group.device("Kiosk", transport: { OlderPeerTransport(client: $0, version: 3) })
            try await older.sync()
            let course = try #require(try await older.db.read(.courses).first)
            let player = try Player(displayName: "Ana")
            _ = try await older.db.write(.savePlayer(player))
            let round = try await older.db.write(
                .createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
            _ = try await older.db.write(
                .saveSeason(try Season(name: "2026", from: "2026-01-01", to: "2026-12-31", rule: .pointsByPlace([3, 2, 1]))))
            #expect(try await older.sync().rejected.isEmpty)
            #expect(try await older.db.read(.pendingSyncCount) == 1)
            let feed = try await group.server.storage.pull(groupID: group.groupID, after: 0, limit: 1000)
            #expect(feed.records.contains { $0.record.kind == .round && $0.record.id == round.id })
            #expect(!feed.records.contains { $0.record.kind == .season })

            let updated = try await older.afterTheServerUpdate()
            #expect(try await updated.db.read(.pendingSyncCount) == 0)
            let after = try await group.server.storage.pull(groupID: group.groupID, after: 0, limit: 1000)
            #expect(after.records.contains { $0.record.kind == .season })
        }
    }
}
