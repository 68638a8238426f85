import ArgumentParser
import Foundation
import HyzerHarness
import HyzerSyncSimulation

extension HyzerBench {
    /// Not a timing benchmark: it runs the deterministic sync simulation over many seeds
    /// (`make test` runs 1,000 of them), and its figures say how many failed.
    struct SyncSim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync-sim",
            abstract: "The deterministic simulation of sync under faults, over many seeds (or one, with its trace).",
            discussion: """
                Each seed runs the real engine and the real server storage over a simulated network that \
                loses, duplicates and reorders requests, with server restarts, restores from older backups, \
                devices killed mid-push and a device revoked mid-round, then checks acknowledgements, \
                convergence and revocation. A failing seed prints itself (seed and fault schedule) on \
                standard error; --seed S replays one and prints its trace. The last line is \
                {"seeds":N,"failures":F,"events":E}.
                """)

        @Option(help: "How many seeds to run.")
        var seeds = 1000

        @Option(name: .customLong("first-seed"), help: "The first seed of the run.")
        var firstSeed: UInt64 = 1

        @Option(help: "Replay this one seed and print its trace.")
        var seed: UInt64?

        @Option(
            help:
                "correct, or a deliberately broken system (the checks' negative controls): ack-before-commit, unenforced-revocation."
        )
        var variant = "correct"

        @Option(help: "Seeds run side by side.")
        var parallel = 2

        @Flag(
            help:
                "Run the server on PostgreSQL (a throwaway server started for the run, a fresh database a seed) instead of SQLite files."
        )
        var postgres = false

        func run() async throws {
            guard let variant = SyncSimulation.Variant(rawValue: variant) else {
                throw ValidationError("unknown variant \(variant)")
            }
            let options = SyncSimulation.Options(variant: variant, postgres: postgres ? .throwaway : nil)
            if let seed {
                let report = await SyncSimulation.run(seed: seed, options: options)
                for line in report.trace { print(line) }
                if !report.passed { log(report.description) }
                emit(seeds: 1, failures: report.passed ? 0 : 1, events: report.trace.count)
                return
            }
            let start = nowNs()
            let total = seeds
            let summary = await SyncSimulation.run(
                seeds: firstSeed..<(firstSeed + UInt64(max(0, seeds))), options: options, parallel: parallel
            ) { report in
                if !report.passed { log(report.description) }
            }
            log(
                "sync-sim: \(summary.seeds) of \(total) seeds, \(summary.failed.count) failed, \(summary.events) events, "
                    + "\(round3(Double(nowNs() - start) / 1e9)) s")
            emit(seeds: summary.seeds, failures: summary.failed.count, events: summary.events)
        }

        /// The figure line, keys in its order (the other benchmarks sort theirs).
        func emit(seeds: Int, failures: Int, events: Int) {
            print("{\"seeds\":\(seeds),\"failures\":\(failures),\"events\":\(events)}")
        }
    }
}
