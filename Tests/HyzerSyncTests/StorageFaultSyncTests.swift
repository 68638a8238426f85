import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import SQLiteFaults
import Testing

/// Issue 12: a device whose card went read-only keeps its board, pulls nothing it cannot
/// store (the cursor stays), and catches up by itself once the card is writable again.
@Suite(.serialized) struct StorageFaultSyncTests {
    @Test func aReadOnlyDevicePullsNothingAndCatchesUpWhenWritable() async throws {
        if let reason = ScratchVolume.unavailable {
            print("skipped: \(reason)")
            return
        }
        try await withGroup { group in
            let a = try await group.device("A")
            let round = try a.startRound(["Nate", "Mike"])
            try a.score(round, 0, hole: 1, 3)
            try await a.sync()

            let volume = try ScratchVolume(megabytes: 64)
            let dir = volume.root.appendingPathComponent("b")
            let b = try HyzerDatabase.open(dataDirectory: dir, assets: repositoryRoot.appendingPathComponent("assets"))
            let answer = try await SyncClient.enroll(
                server: group.server.baseURL, groupToken: group.adminToken, deviceID: b.deviceID, name: "B")
            let link = ServerLink(
                serverURL: group.server.baseURL, groupID: answer.groupID, groupName: answer.groupName,
                deviceID: b.deviceID, deviceName: "B", deviceToken: answer.deviceToken, enrolledAt: b.clock.date)
            try await SyncEngine(database: b, link: link).syncNow()
            #expect(try await b.read(.events(round: round.id)).count == 1)
            try b.close()

            // A scores on while B's card is read-only.
            for hole in 2...4 { try a.score(round, 1, hole: hole, 4) }
            try await a.sync()
            try volume.remount(readOnly: true)
            let store = try HyzerDatabase(directory: dir)
            #expect(store.isReadOnly)
            let cursor = try await store.read(.syncCursor)
            await #expect(throws: StorageFault.readOnly(directory: dir.path)) {
                try await SyncEngine(database: store, link: link).syncNow()
            }
            #expect(try await store.read(.syncCursor) == cursor, "nothing pulled, the cursor stays")
            #expect(try await store.read(.events(round: round.id)).count == 1, "the board still shows what was stored")

            // Writable again: the same store syncs, and nothing A acknowledged is missing.
            try volume.remount(readOnly: false)
            try await SyncEngine(database: store, link: link).syncNow()
            #expect(!store.isReadOnly)
            #expect(
                Set(try await store.read(.events(round: round.id)).map(\.id))
                    == Set(try await a.db.read(.events(round: round.id)).map(\.id)))
            try store.close()
        }
    }
}
