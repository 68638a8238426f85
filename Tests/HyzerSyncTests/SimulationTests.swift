import Foundation
import HyzerHarness
import HyzerSyncSimulation
import Synchronization
import Testing

/// The deterministic simulation of sync under faults (HyzerSyncSimulation): the real engine
/// and the real server storage over a seeded, simulated network and clock.
@Suite struct SimulationTests {
    /// Every kind of fault the simulation makes, as its trace names them.
    static let faultKinds = [
        "the request is lost", "the reply is lost", "delivered twice", "arrives late", "killed while it waits",
        "killed between requests", "the server restarts", "restored from", "by hand", "by the restore command",
        "the admin revokes",
    ]

    /// Runs `seeds` (each failing one recorded as an issue) and counts the seeds that had each
    /// kind of fault.
    static func run(
        _ seeds: Range<UInt64>, options: SyncSimulation.Options
    ) async -> (
        summary: SyncSimulation.Summary, faults: [String: Int]
    ) {
        let faults = Mutex<[String: Int]>([:])
        let summary = await SyncSimulation.run(seeds: seeds, options: options) { report in
            faults.withLock { counts in
                for kind in faultKinds where report.schedule.contains(where: { $0.contains(kind) }) {
                    counts[kind, default: 0] += 1
                }
            }
        }
        for report in summary.failed.prefix(5) { Issue.record(Comment(rawValue: report.description)) }
        return (summary, faults.withLock { $0 })
    }

    /// `make test`'s seeds: every one must pass its checks (acknowledged scores on the server
    /// exactly once, devices converged, nothing accepted from a revoked device, killed
    /// devices' inFlight rows pending again), and between them every kind of fault happens.
    @Test func aThousandSeedsPass() async {
        let (summary, faults) = await Self.run(1..<1001, options: SyncSimulation.Options())
        #expect(summary.seeds == 1000)
        #expect(summary.failed.isEmpty, "\(summary.failed.count) seeds failed")
        for kind in Self.faultKinds { #expect(faults[kind, default: 0] > 0, "no seed had a fault '\(kind)'") }
    }

    /// The same checks with the group server on PostgreSQL (a server this test starts, a
    /// fresh database a seed): its push (the locked principal, one read, one write) and
    /// its one-statement pull under lost, duplicated and late requests, server restarts,
    /// pg_dump/pg_restore restores and a revocation. Every kind of fault happens but the
    /// by-hand file copy, which is SQLite's alone; a seed replays to the same trace.
    @Test func seedsPassWithTheServerOnPostgreSQL() async {
        let options = SyncSimulation.Options(postgres: .throwaway)
        let (summary, faults) = await Self.run(1..<151, options: options)
        #expect(summary.seeds == 150)
        #expect(summary.failed.isEmpty, "\(summary.failed.count) seeds failed")
        for kind in Self.faultKinds where kind != "by hand" {
            #expect(faults[kind, default: 0] > 0, "no seed had a fault '\(kind)'")
        }
        #expect(faults["by hand"] == nil)

        let first = await SyncSimulation.run(seed: 77, options: options)
        let second = await SyncSimulation.run(seed: 77, options: options)
        #expect(first.trace == second.trace)
        #expect(first.trace.contains { $0.contains("pushes") })
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

    /// Negative controls: a system with a real bug fails some seeds, for the right reason, with
    /// the server on SQLite and on PostgreSQL.
    @Test(
        arguments: [
            (SyncSimulation.Variant.ackBeforeCommit, "acknowledged but"),
            (.unenforcedRevocation, "after its revocation"),
        ], [false, true])
    func aBrokenSystemFailsSomeSeeds(control: (variant: SyncSimulation.Variant, symptom: String), onPostgres: Bool) async {
        let options = SyncSimulation.Options(variant: control.variant, postgres: onPostgres ? .throwaway : nil)
        let summary = await SyncSimulation.run(seeds: 1..<31, options: options)
        #expect(!summary.failed.isEmpty)
        #expect(summary.failed.contains { $0.failures.contains { $0.contains(control.symptom) } })
        // A failing seed names itself and how to replay it.
        let replay = summary.failed.first?.description ?? ""
        #expect(replay.contains("--variant \(control.variant.rawValue)"))
        #expect(replay.contains("--postgres") == onPostgres)
    }
}
