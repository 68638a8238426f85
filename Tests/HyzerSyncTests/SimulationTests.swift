import Foundation
import HyzerSyncSimulation
import HyzerTestSupport
import Synchronization
import Testing

/// The deterministic simulation of sync under faults (HyzerSyncSimulation): the real engine
/// and the real server storage over a seeded, simulated network and clock.
@Suite struct SimulationTests {
    /// `make test`'s seeds: every one must pass its checks (acknowledged scores on the server
    /// exactly once, devices converged, nothing accepted from a revoked device, killed
    /// devices' inFlight rows pending again), and between them every kind of fault happens.
    @Test func aThousandSeedsPass() async {
        let faults = Mutex<[String: Int]>([:])
        let kinds = [
            "the request is lost", "the reply is lost", "delivered twice", "arrives late", "killed while it waits",
            "killed between requests", "the server restarts", "restored from", "by hand", "by the restore command",
            "the admin revokes",
        ]
        let summary = await SyncSimulation.run(seeds: 1..<1001) { report in
            faults.withLock { counts in
                for kind in kinds where report.schedule.contains(where: { $0.contains(kind) }) { counts[kind, default: 0] += 1 }
            }
        }
        for report in summary.failed.prefix(5) { Issue.record(Comment(rawValue: report.description)) }
        #expect(summary.seeds == 1000)
        #expect(summary.failed.isEmpty, "\(summary.failed.count) seeds failed")
        let counts = faults.withLock { $0 }
        for kind in kinds { #expect(counts[kind, default: 0] > 0, "no seed had a fault '\(kind)'") }
    }

    /// The same checks with the group server on PostgreSQL (a server this test starts, a
    /// fresh database a seed): its push (the locked principal, one read, one write) and
    /// its one-statement pull under lost, duplicated and late requests, server restarts,
    /// pg_dump/pg_restore restores and a revocation. Every kind of fault happens but the
    /// by-hand file copy, which is SQLite's alone; a seed replays to the same trace.
    @Test func seedsPassWithTheServerOnPostgreSQL() async {
        let faults = Mutex<[String: Int]>([:])
        let kinds = [
            "the request is lost", "the reply is lost", "delivered twice", "arrives late", "killed while it waits",
            "killed between requests", "the server restarts", "by the restore command", "the admin revokes",
        ]
        let options = SyncSimulation.Options(postgres: .throwaway)
        let summary = await SyncSimulation.run(seeds: 1..<151, options: options) { report in
            faults.withLock { counts in
                for kind in kinds + ["by hand"] where report.schedule.contains(where: { $0.contains(kind) }) {
                    counts[kind, default: 0] += 1
                }
            }
        }
        for report in summary.failed.prefix(5) { Issue.record(Comment(rawValue: report.description)) }
        #expect(summary.seeds == 150)
        #expect(summary.failed.isEmpty, "\(summary.failed.count) seeds failed")
        let counts = faults.withLock { $0 }
        for kind in kinds { #expect(counts[kind, default: 0] > 0, "no seed had a fault '\(kind)'") }
        #expect(counts["by hand"] == nil)

        let first = await SyncSimulation.run(seed: 77, options: options)
        let second = await SyncSimulation.run(seed: 77, options: options)
        #expect(first.trace == second.trace)
        #expect(first.trace.contains { $0.contains("pushes") })
    }

    /// The negative controls on PostgreSQL: the checks catch the same broken systems there.
    @Test(arguments: [
        (SyncSimulation.Variant.ackBeforeCommit, "acknowledged but"),
        (.unenforcedRevocation, "after its revocation"),
    ])
    func aBrokenSystemFailsSomeSeedsOnPostgreSQL(variant: SyncSimulation.Variant, symptom: String) async {
        let options = SyncSimulation.Options(variant: variant, postgres: .throwaway)
        let summary = await SyncSimulation.run(seeds: 1..<31, options: options)
        #expect(summary.failed.contains { $0.failures.contains { $0.contains(symptom) } })
        #expect(summary.failed.first?.description.contains("--postgres") == true)
    }

    /// Determinism: a failing seed can be replayed step by step.
    @Test func aSeedGivesTheSameTraceEveryTime() async {
        for seed: UInt64 in [3, 77, 1000] {
            let first = await SyncSimulation.run(seed: seed)
            let second = await SyncSimulation.run(seed: seed)
            #expect(first.trace == second.trace, "seed \(seed)")
            #expect(first.trace.count > 20)
        }
        #expect(await SyncSimulation.run(seed: 1).trace != (await SyncSimulation.run(seed: 2)).trace)
    }

    /// Negative controls: a system with a real bug fails some seeds, for the right reason.
    @Test(arguments: [
        (SyncSimulation.Variant.ackBeforeCommit, "acknowledged but"),
        (.unenforcedRevocation, "after its revocation"),
    ])
    func aBrokenSystemFailsSomeSeeds(variant: SyncSimulation.Variant, symptom: String) async {
        let summary = await SyncSimulation.run(seeds: 1..<31, options: SyncSimulation.Options(variant: variant))
        #expect(!summary.failed.isEmpty)
        #expect(summary.failed.contains { $0.failures.contains { $0.contains(symptom) } })
        // A failing seed names itself and how to replay it.
        #expect(summary.failed.first?.description.contains("--variant \(variant.rawValue)") == true)
    }
}

extension SyncSimulation.PostgresDatabases {
    /// On the throwaway server the tests share (`TestPostgres`).
    static var throwaway: Self {
        Self(make: { try await TestPostgres.shared.freshDatabase() }, drop: { try await TestPostgres.shared.drop($0) })
    }
}
