import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Devices against a real server on loopback, with real SQLite files.
@Suite(.serialized) struct ConvergenceTests {
    @Test func twoDevicesConverge() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let round = try a.startRound(["Nate", "Mike", "Jake"])
            try a.score(round, 0, hole: 1, 3)
            try a.score(round, 1, hole: 1, 4)
            try a.score(round, 1, hole: 1, 5)  // a correction: supersedes the 4
            let pushed = try await a.sync()
            #expect(pushed.rejected.isEmpty)
            #expect(pushed.created >= 4)  // course(s), players, round, 3 events

            try await b.sync()
            let onB = try b.snapshot(round)
            #expect(onB.round.status == .active)
            #expect(onB.round.participants.map(\.name) == ["Nate", "Mike", "Jake"])
            #expect(onB.events.count == 3)
            #expect(onB.scorecard.value(participant: round.participants[1].id, hole: 1) == 5)
            #expect(onB.standings == (try a.snapshot(round)).standings)

            // And back: B scores, A pulls.
            try b.score(onB.round, 2, hole: 1, 2)
            try await b.sync()
            try await a.sync()
            #expect(try a.snapshot(round).events.count == 4)
            #expect(try a.snapshot(round).standings == (try b.snapshot(round)).standings)
            // Nothing left to push anywhere, and nothing echoed back as new.
            #expect(try await a.db.read(.pendingSyncCount) == 0)
            #expect(try await b.db.read(.pendingSyncCount) == 0)
            #expect(try await group.serverEvents().count == 4)
        }
    }

    @Test func threeDevicesAgreeSilentlyDisagreeOnceAndResolve() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let c = try await group.device("C")
            let round = try a.startRound(["Nate", "Mike"])
            try await a.sync()
            try await b.sync()
            try await c.sync()
            let devices = [a, b, c]

            // NFR20: the same score from three devices merges silently.
            for d in devices { try d.score(round, 0, hole: 1, 3) }
            for _ in 0..<2 { for d in devices { try await d.sync() } }
            for d in devices {
                let s = try d.snapshot(round)
                #expect(s.events.count == 3, "\(d.name)")
                #expect(s.scorecard.discrepancies.isEmpty, "\(d.name) shows a false discrepancy")
                #expect(s.scorecard.value(participant: round.participants[0].id, hole: 1) == 3)
            }

            // Different scores raise exactly one discrepancy, on every device.
            try a.score(round, 1, hole: 1, 4)
            try b.score(round, 1, hole: 1, 5)
            for _ in 0..<2 { for d in devices { try await d.sync() } }
            for d in devices {
                let discrepancies = try d.snapshot(round).scorecard.discrepancies
                #expect(discrepancies.count == 1, "\(d.name): \(discrepancies)")
                #expect(discrepancies.first?.values == [4, 5])
            }

            // A resolution on one device propagates and clears it everywhere.
            try await c.db.write(
                .resolveDiscrepancy(
                    ScoreEntry(
                        roundID: round.id, participantID: round.participants[1].id, hole: 1,
                        strokes: 4, reportedBy: round.participants[0].id)))
            for _ in 0..<2 { for d in devices { try await d.sync() } }
            for d in devices {
                let s = try d.snapshot(round)
                #expect(s.scorecard.discrepancies.isEmpty, "\(d.name)")
                #expect(s.scorecard.value(participant: round.participants[1].id, hole: 1) == 4)
            }
            #expect(try await group.serverEvents().count == 6)
        }
    }

    @Test func twentyIdenticalScoresFromManyDevicesRaiseNoDiscrepancy() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let round = try a.startRound(["Nate"])
            try await a.sync()
            try await b.sync()
            // NFR20's check: 20+ identical events from several devices (imported as if made
            // on ten phones, then relayed through these two devices).
            var events: [ScoreEvent] = []
            for i in 0..<22 {
                events.append(
                    ScoreEvent(
                        roundID: round.id, participantID: round.participants[0].id, hole: 7, strokes: 3,
                        reportedBy: round.participants[0].id, deviceID: "phone-\(i % 10)", createdAt: a.db.clock.date))
            }
            _ = try await a.db.write(.importEvents(Array(events.prefix(11))))
            _ = try await b.db.write(.importEvents(Array(events.suffix(11))))
            for _ in 0..<2 {
                try await a.sync()
                try await b.sync()
            }
            for d in [a, b] {
                let s = try d.snapshot(round)
                #expect(s.events.count == 22)
                #expect(s.scorecard.discrepancies.isEmpty)
            }
        }
    }

    /// The live path: B runs its engine with a socket and polling effectively off, so only
    /// a poke can bring A's score; B's change stream reports it with `.remoteSync`.
    @Test func pokeDeliversARemoteScoreToARunningEngine() async throws {
        try await withGroup { group in
            var options = SyncEngine.Options()
            options.policy.pollActiveRound = 600
            options.policy.pollIdle = 600
            options.policy.pollWithSocket = 600
            let a = try await group.device("A")
            let b = try await group.device("B", options: options)
            let round = try a.startRound(["Nate", "Mike"])
            try await a.sync()
            try await b.sync()

            let states = b.engine.stateUpdates()
            let changes = b.engine.changes()
            b.startEngine()
            let live = await firstValue(states, within: 10) { $0.live }
            #expect(live != nil, "the poke socket never connected")

            try a.score(round, 1, hole: 2, 4)
            try await a.sync()
            let change = await firstValue(changes, within: 10) { $0.eventsInserted > 0 }
            #expect(change?.trigger == .remoteSync)
            #expect(change?.rounds == [round.id])
            #expect(try b.snapshot(round).scorecard.value(participant: round.participants[1].id, hole: 2) == 4)
            let state = b.engine.state
            #expect(state.lastSyncedAt != nil)
        }
    }

    /// Push on local write: a running engine sends a score without anyone calling sync.
    @Test func runningEnginePushesOnLocalWrite() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let round = try a.startRound(["Nate"])
            try await a.sync()
            let states = a.engine.stateUpdates()
            a.startEngine()
            #expect(await firstValue(states, within: 10) { $0.lastSyncedAt != nil } != nil)
            try a.score(round, 0, hole: 1, 3)
            a.engine.localDataChanged()
            // The server commits before the device records its answer: wait for both, not
            // for the first alone (checking the outbox right after the server had the event
            // failed now and then).
            let id = try a.snapshot(round).events[0].id
            var onServer = 0
            var status = try await a.db.read(.outboxStatus(of: id))
            for _ in 0..<200 where onServer == 0 || status != .synced {
                try await Task.sleep(nanoseconds: 50_000_000)
                onServer = try await group.serverEvents().count
                status = try await a.db.read(.outboxStatus(of: id))
            }
            #expect(onServer == 1)
            #expect(status == .synced)
        }
    }
}
