import Foundation
import HyzerKit
import HyzerServer

/// A deterministic, seeded simulation of sync under faults (FoundationDB's simulation
/// testing, at the size of this protocol). One seed is one small scenario: a group server
/// (the real `SQLiteStorage` on files, or `PostgresStorage` on a PostgreSQL server), two or
/// three devices (real `HyzerDatabase`s and real `SyncEngine`s), and a simulated network and
/// clock between them. A seeded generator picks every step: which device scores, pushes or
/// pulls, what the network does with each request (lose it, lose its reply, deliver it
/// twice, hold it back and deliver it later), and when the server restarts, is restored
/// from an older backup, revokes a device, or a device is killed in the middle of a push.
/// Then the network heals, the devices sync, and the run is checked
/// (`SimulationReport.failures`).
///
/// Nothing here reimplements the protocol: the engine's own push/pull steps run against the
/// storage's own `push(as:)`/`pull(as:)`, which hold every check the HTTP routes rely on
/// (the token, its device, revocation, all in the request's transaction).
///
/// Determinism: the only sources of randomness the trace depends on are the seed's
/// generator and the order of awaited calls, which is sequential. Ids the code under test
/// makes at random (versions, the epoch, device ids) never appear in the trace: an epoch
/// is named by the order it was first seen in (`#1`, `#2`, …).
public enum SyncSimulation {
    public struct Options: Sendable {
        public var variant: Variant = .correct
        /// Scenario steps before the network heals (each also moves the clock by 1 s).
        public var steps: ClosedRange<Int> = 12...20
        /// Devices in the group.
        public var devices: ClosedRange<Int> = 2...3
        /// Where each run's files go (a directory per run, removed afterwards); nil picks
        /// /dev/shm when it is writable (no disk under the fsyncs), else the temporary one.
        public var directory: URL?
        /// Runs the server on PostgreSQL (`PostgresStorage`), a fresh database each run,
        /// instead of on SQLite files. Restores then use pg_restore, and none is by hand.
        public var postgres: PostgresDatabases?

        public init(variant: Variant = .correct, postgres: PostgresDatabases? = nil) {
            self.variant = variant
            self.postgres = postgres
        }
    }

    /// A PostgreSQL server the runs may make databases on: `make` gives a new, empty one,
    /// `drop` removes it after its run (connections and all).
    public struct PostgresDatabases: Sendable {
        public var make: @Sendable () async throws -> PostgresLocation
        public var drop: @Sendable (PostgresLocation) async throws -> Void

        public init(
            make: @escaping @Sendable () async throws -> PostgresLocation,
            drop: @escaping @Sendable (PostgresLocation) async throws -> Void
        ) {
            self.make = make
            self.drop = drop
        }
    }

    /// A deliberately broken system, for the negative controls: the checks must catch it.
    public enum Variant: String, Sendable, CaseIterable {
        case correct
        /// The device's transport answers a push `created` before the server has it, as an
        /// engine that acknowledged ahead of the commit would: lost requests lose scores.
        case ackBeforeCommit = "ack-before-commit"
        /// The server accepts a device's push and pull without checking its token
        /// (`push(groupID:deviceID:records:)`): a revoked device still gets in.
        case unenforcedRevocation = "unenforced-revocation"
    }

    /// Runs one seed.
    public static func run(seed: UInt64, options: Options = Options()) async -> SimulationReport {
        let templates: Templates
        do {
            templates = try Templates.make(in: options.directory ?? defaultDirectory)
        } catch {
            var report = SimulationReport(seed: seed, options: options)
            report.failures.append("cannot make the template databases: \(error)")
            return report
        }
        defer { templates.remove() }
        return await run(seed: seed, options: options, templates: templates)
    }

    static func run(seed: UInt64, options: Options, templates: Templates) async -> SimulationReport {
        let base = options.directory ?? defaultDirectory
        let root = base.appendingPathComponent("hyzer-sim-\(seed)-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let world = World(seed: seed, options: options, root: root, templates: templates)
        return await world.run()
    }

    /// Runs `seeds`, `parallel` at a time (each run is alone in its actor and directory, so
    /// running them side by side changes no trace). `progress` sees each report as it ends.
    public static func run(
        seeds: Range<UInt64>, options: Options = Options(), parallel: Int = 2,
        progress: @Sendable (SimulationReport) -> Void = { _ in }
    ) async -> Summary {
        var summary = Summary()
        let templates: Templates
        do {
            templates = try Templates.make(in: options.directory ?? defaultDirectory)
        } catch {
            var report = SimulationReport(seed: seeds.lowerBound, options: options)
            report.failures.append("cannot make the template databases: \(error)")
            summary.failed.append(report)
            return summary
        }
        defer { templates.remove() }
        await withTaskGroup(of: SimulationReport.self) { group in
            var next = seeds.lowerBound
            func add() {
                guard next < seeds.upperBound else { return }
                let seed = next
                next += 1
                group.addTask { await SyncSimulation.run(seed: seed, options: options, templates: templates) }
            }
            for _ in 0..<max(1, parallel) { add() }
            while let report = await group.next() {
                summary.seeds += 1
                summary.events += report.trace.count
                if !report.passed { summary.failed.append(report) }
                progress(report)
                add()
            }
        }
        summary.failed.sort { $0.seed < $1.seed }
        return summary
    }

    public struct Summary: Sendable {
        public var seeds = 0
        public var events = 0
        /// The failing runs, by seed.
        public var failed: [SimulationReport] = []
    }

    static var defaultDirectory: URL {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        if FileManager.default.isWritableFile(atPath: shm.path) { return shm }
        return FileManager.default.temporaryDirectory
    }
}

/// What one seed did and what its checks found.
public struct SimulationReport: Sendable, Equatable {
    public var seed: UInt64
    public var variant: SyncSimulation.Variant
    /// The server ran on PostgreSQL rather than SQLite.
    public var onPostgres: Bool
    /// Every step and network event, in order: the same seed gives the same lines.
    public var trace: [String] = []
    /// The faults among them, for a failing seed to print.
    public var schedule: [String] = []
    /// What the checks found wrong; empty when the run passed.
    public var failures: [String] = []

    public var passed: Bool { failures.isEmpty }

    init(seed: UInt64, options: SyncSimulation.Options) {
        self.seed = seed
        self.variant = options.variant
        self.onPostgres = options.postgres != nil
    }

    /// A failing seed as it prints itself: enough to replay it.
    public var description: String {
        var lines = ["seed \(seed) (\(variant.rawValue)) failed:"]
        lines += failures.map { "  - \($0)" }
        lines.append("  fault schedule:")
        lines += schedule.map { "    \($0)" }
        lines.append(
            "  replay: hyzer-bench sync-sim --seed \(seed)\(variant == .correct ? "" : " --variant \(variant.rawValue)")"
                + (onPostgres ? " --postgres" : ""))
        return lines.joined(separator: "\n")
    }
}
