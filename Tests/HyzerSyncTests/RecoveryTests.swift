import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// NFR8/NFR11: offline for hours, crashes on either side, lost replies, restored servers.
@Suite(.serialized) struct RecoveryTests {
    /// Four hours offline, 18 holes × 24 players plus corrections (over 500 events): each
    /// one reaches the server and the other device exactly once.
    @Test func fourHoursOfflineDeliversEveryScoreExactlyOnce() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let names = Array(HyzerDatabase.demoNames.prefix(24))
            let round = try a.startRound(names)
            try await a.sync()
            try await b.sync()

            // Offline: A points at a port nobody listens on.
            let offlineLink = ServerLink(
                serverURL: "http://127.0.0.1:\(refusingPort)", groupID: a.link.groupID,
                groupName: a.link.groupName, deviceID: a.link.deviceID, deviceName: "A",
                deviceToken: a.link.deviceToken, enrolledAt: a.link.enrolledAt)
            var quick = SyncEngine.Options()
            quick.requestTimeout = 0.3
            let offline = SyncEngine(database: a.db, link: offlineLink, options: quick)
            let start = Date(timeIntervalSince1970: 1_795_000_000)
            var written = 0
            for hole in 1...18 {
                let at = start.addingTimeInterval(Double(hole) * 800)  // 18 × 800 s = 4 h
                for p in 0..<names.count {
                    try a.score(round, p, hole: hole, 3 + (p + hole) % 3, at: at)
                    written += 1
                    if (p + hole) % 5 == 0 {  // a correction
                        try a.score(round, p, hole: hole, 2 + (p + hole) % 4, at: at.addingTimeInterval(30))
                        written += 1
                    }
                }
                if hole % 6 == 0 {
                    // A sync attempt in the dead zone fails and loses nothing.
                    await #expect(throws: SyncClientError.self) { try await offline.syncNow() }
                }
            }
            #expect(written >= 500)
            #expect(try await a.db.read(.pendingSyncCount) >= written)

            let report = try await a.sync()
            #expect(report.rejected.isEmpty)
            #expect(report.duplicates == 0)
            #expect(try await a.db.read(.pendingSyncCount) == 0)
            try await b.sync()

            let onServer = try await group.serverEvents()
            let local = try a.snapshot(round).events
            #expect(onServer.count == written)
            #expect(Set(onServer.keys) == Set(local.map(\.id)))
            let onB = try b.snapshot(round)
            #expect(onB.events.count == written)
            #expect(Set(onB.events.map(\.id)).count == written)
            #expect(onB.standings == (try a.snapshot(round)).standings)
            #expect(onB.round.status == .awaitingFinalization)
            // A second sync finds nothing new anywhere.
            let again = try await a.sync()
            #expect(again.created == 0 && again.pulled == 0)
        }
    }

    /// A reply lost after the server committed: the retry is answered `duplicate`, with
    /// the sequence numbers of the first time, and nothing is stored twice.
    @Test func lostReplyRetryGetsDuplicateWithTheSameSequence() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let round = try a.startRound(["Nate", "Mike"])
            try await a.sync()
            for hole in 1...5 { try a.score(round, 0, hole: hole, 3) }

            // What a push does up to the network, then the answer is "lost".
            let pending = try await a.db.write(.pendingSyncRecords())
            _ = try await a.db.write(.reconcileOutbox(with: pending))
            let claimed = try await a.db.write(.claimOutbox(limit: 100))
            #expect(claimed.count == 5)
            let client = SyncClient(link: a.link)
            let first = try await client.push(claimed.map(\.record))
            #expect(first.results.allSatisfy { $0.status == .created })
            for item in claimed { #expect(try await a.db.read(.outboxStatus(of: item.record.id)) == .inFlight) }

            // The device restarts and retries.
            let reopened = try HyzerDatabase(directory: a.dir)
            let retry = try await SyncEngine(database: reopened, link: a.link).syncNow()
            #expect(retry.created == 0)
            #expect(retry.duplicates == 5)
            let onServer = try await group.serverEvents()
            #expect(onServer.count == 5)
            let again = try await client.push(claimed.map(\.record))
            #expect(again.results.map(\.status) == Array(repeating: .duplicate, count: 5))
            #expect(again.results.map(\.seq) == first.results.map(\.seq))
            for item in claimed { #expect(try await reopened.read(.outboxStatus(of: item.record.id)) == .synced) }
        }
    }

    /// A1: rows left inFlight by a crash are pending again at the next start, and are
    /// delivered once.
    @Test func deviceRestartWithInFlightRows() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let round = try a.startRound(["Nate"])
            try await a.sync()
            for hole in 1...3 { try a.score(round, 0, hole: hole, 4) }
            _ = try await a.db.write(.reconcileOutbox(with: try a.db.write(.pendingSyncRecords())))
            let claimed = try await a.db.write(.claimOutbox(limit: 100))
            #expect(claimed.count == 3)
            // A second claim (a re-entrant push) gets nothing: no record is sent twice.
            #expect(try await a.db.write(.claimOutbox(limit: 100)).isEmpty)
            #expect(try await a.db.read(.outboxCounts)[.inFlight] == 3)

            // "Crash": the process is gone, the database is opened again.
            let reopened = try HyzerDatabase(directory: a.dir)
            let engine = SyncEngine(database: reopened, link: a.link)
            let states = engine.stateUpdates()
            let run = Task { try? await engine.run() }
            #expect(await firstValue(states, within: 10) { $0.lastSyncedAt != nil && $0.pending == 0 } != nil)
            run.cancel()
            await run.value
            #expect(try await reopened.read(.outboxCounts)[.inFlight] == nil)
            for item in claimed { #expect(try await reopened.read(.outboxStatus(of: item.record.id)) == .synced) }
            #expect(try await group.serverEvents().count == 3)
        }
    }

    /// A3: sync.sqlite lost or recreated: the domain store still knows what is not on the
    /// server, so nothing is lost; what the server has is answered `duplicate`.
    @Test func recreatedOperationalStoreLosesNothing() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let round = try a.startRound(["Nate"])
            try await a.sync()
            try a.score(round, 0, hole: 1, 3)
            try a.score(round, 0, hole: 2, 3)
            _ = try await a.db.write(.reconcileOutbox(with: try a.db.write(.pendingSyncRecords())))
            _ = try await a.db.write(.claimOutbox(limit: 1))  // one of them was in flight
            try a.db.close()
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(
                    atPath: a.dir.appendingPathComponent(HyzerDatabase.operationalFileName).path + suffix)
            }
            let reopened = try HyzerDatabase(directory: a.dir)
            let report = try await SyncEngine(database: reopened, link: a.link).syncNow()
            #expect(report.created == 2)
            #expect(try await group.serverEvents().count == 2)
            #expect(try await reopened.read(.pendingSyncCount) == 0)
        }
    }

    /// The server restored from a backup: a new epoch; devices re-pull from zero and
    /// re-push what the server lost, and everything converges with nothing doubled.
    @Test func serverRestoredFromBackupGetsANewEpochAndDevicesRepair() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let round = try a.startRound(["Nate", "Mike"])
            for hole in 1...4 { try a.score(round, 0, hole: hole, 3) }
            try await a.sync()
            try await b.sync()
            let backup = group.serverDir.appendingPathComponent("backup.sqlite")
            try await group.server.storage.backup(to: backup)
            let oldEpoch = group.server.storage.epoch

            // After the backup: more scores from both devices, all synced.
            for hole in 5...8 { try a.score(round, 0, hole: hole, 4) }
            try b.score(round, 1, hole: 1, 5)
            try await a.sync()
            try await b.sync()
            try await a.sync()
            #expect(try await group.serverEvents().count == 9)

            // The server's disk dies; an admin copies the backup into place by hand.
            try await group.restart {
                let path = group.serverDir.appendingPathComponent(SQLiteStorage.fileName).path
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                try FileManager.default.copyItem(atPath: backup.path, toPath: path)
            }
            #expect(group.server.storage.epoch != oldEpoch)
            #expect(try await group.serverEvents().count == 4)

            let repairA = try await a.sync()
            let repairB = try await b.sync()
            #expect(repairA.epochChanged && repairB.epochChanged)
            try await a.sync()
            let onServer = try await group.serverEvents()
            #expect(onServer.count == 9)
            for d in [a, b] {
                let s = try d.snapshot(round)
                #expect(s.events.count == 9, "\(d.name)")
                #expect(try await d.db.read(.pendingSyncCount) == 0)
            }
            #expect(try a.snapshot(round).standings == (try b.snapshot(round)).standings)
        }
    }
}
