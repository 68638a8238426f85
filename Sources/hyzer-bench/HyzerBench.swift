// hyzer-bench NAME: release-mode benchmarks, one subcommand each. Each prints progress on
// standard error, then one JSON object of figures as the last line of standard output.
// Figures go to docs/benchmarks.md; nothing here asserts.
import ArgumentParser
import Foundation
import HyzerKit
import HyzerServer
import HyzerSystem
import KioskHardware
import Logging

@main
struct HyzerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-bench",
        abstract: "Release-mode benchmarks (build with -c release; `make bench` runs them all).",
        discussion: """
            Each benchmark logs its progress on standard error and prints its figures as one JSON \
            object (keys sorted) on the last line of standard output. --log-level LEVEL (any \
            subcommand; default warning) sets what the parts under test log, on standard error.
            """,
        subcommands: [
            Standings.self, Store.self, History.self, KnobLatency.self, KnobAccuracy.self, Render.self, SyncLatency.self,
            Soak.self, NameEntry.self, RenderInstructions.self, ServerLoad.self, SyncSim.self, PaperCard.self,
            UDiscImport.self, SeasonTableBenchmark.self,
        ])

    /// `--log-level` is taken before the parser (it belongs to no one subcommand); the
    /// rest is ArgumentParser's own main.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            HyzerLogging.bootstrap(level: try HyzerLogging.takeLevel(from: &arguments) ?? .warning)
        } catch {
            FileHandle.standardError.write(Data("hyzer-bench: \(error)\n".utf8))
            Foundation.exit(64)
        }
        // The run under callgrind stays on this thread, before any await: valgrind 3.19
        // (Debian 12) dies creating Swift concurrency's worker threads (an internal SIGSEGV;
        // plain pthreads and Dispatch are fine), and the count needs none of them.
        if arguments.first == "render-instructions", arguments.contains(RenderInstructionsBenchmark.innerFlag) {
            do {
                let command = try RenderInstructions.parse(Array(arguments.dropFirst()))
                try command.runInner()
                Foundation.exit(0)
            } catch {
                exit(withError: error)
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Prints a benchmark's figures as the last output line.
    static func emit(_ figures: Figures) throws {
        print(try figures.json())
    }

    struct Standings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Full standings recompute: 20 players x 18 holes, 10% corrections, 5% discrepancies.")

        func run() async throws { try emit(try await StandingsBenchmark.run()) }
    }

    struct Store: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The 5-year store (NFR21): 250 rounds written, then its size, history listing and round opening.")
        @OptionGroup var data: DataOption

        func run() async throws {
            try await data.run("store") { try await StoreBenchmark.run(in: $0) }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "History screens on the 5-year store: press to first frame (headless), p50/p99 per screen.")
        @OptionGroup var data: DataOption

        func run() async throws {
            try await data.run("history") { try await HistoryBenchmark.run(in: $0) }
        }
    }

    struct KnobLatency: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "knob-latency",
            abstract: "Detent to buzzer pulse through the real knob path, every core loaded by renderer threads.")
        @Flag(help: "Plain time-sharing priority instead of the kiosk's realtime one.") var normal = false
        @Flag(name: .customLong("no-load"), help: "No renderer threads.") var noLoad = false
        @Option(help: "Detents per second.") var rate = KnobLatencyBenchmark.rateHz
        @Option(help: "Detents to replay.") var detents = KnobLatencyBenchmark.detents

        func validate() throws {
            guard rate > 0 else { throw ValidationError("--rate needs detents/s above 0") }
            guard detents > 0 else { throw ValidationError("--detents needs a count above 0") }
        }

        func run() async throws {
            let settings = KnobLatencyBenchmark.Settings(
                detents: detents, rateHz: rate, priority: normal ? .normal : .kioskDefault, load: !noLoad)
            try emit(try await KnobLatencyBenchmark.run(settings))
        }
    }

    struct UDiscImport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "udisc-import",
            abstract: "Ten years of UDisc history (about 5,000 rows): read, imported, imported again, read back.",
            discussion: "Goal: the import in seconds (issue 37 item 4).")
        @OptionGroup var data: DataOption
        @Option(help: "Rows in the generated export.") var rows = 5_000

        func run() async throws {
            try await data.run("udisc-import") { try await UDiscImportBenchmark.run(in: $0, rows: rows) }
        }
    }

    struct SeasonTableBenchmark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "season",
            abstract: "A season table over 5 years of weekly events of 20 players, recomputed as the kiosk asks for it.",
            discussion: "Goal: at most 50 ms p99 (issue 37).")
        @OptionGroup var data: DataOption
        @Option(help: "Years of weekly events.") var years = 5
        @Option(help: "Players at every event.") var players = 20
        @Option(help: "Times the table is recomputed.") var iterations = 60

        func run() async throws {
            try await data.run("season") {
                try await SeasonBenchmark.run(in: $0, years: years, players: players, iterations: iterations)
            }
        }
    }

    struct PaperCard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "paper-card",
            abstract: "Knob actions a cell to type paper cards in: Enter a paper card against the hole card, side by side.",
            discussion: "Goal: at most 1.8 actions a cell on a typical amateur card (issue 35).")
        @Option(help: "Cards to type: one player's 18 strokes a line, --players lines a round (default: generated).")
        var cards: String?
        @Option(help: "Players on each card.") var players = 4
        @Option(help: "Generated cards (without --cards).") var rounds = 25

        func validate() throws {
            guard (1...Round.maxParticipants).contains(players), rounds > 0 else {
                throw ValidationError("--players takes 1 to \(Round.maxParticipants), --rounds at least 1")
            }
        }

        func run() async throws {
            let list =
                try cards.map { try PaperCardBenchmark.cards(from: URL(fileURLWithPath: $0), players: players) }
                ?? PaperCardBenchmark.typicalCards(rounds: rounds, players: players)
            try emit(try PaperCardBenchmark.run(cards: list))
        }
    }

    struct KnobAccuracy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "knob-accuracy",
            abstract: "Decoded against true detents on noisy generated traces, both modes, 100-1,000 detents/s.")

        func run() async throws { try emit(try await KnobAccuracyBenchmark.run()) }
    }

    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Board frame times, score-to-redraw, kiosk launch to first frame, idle CPU and memory.",
            discussion: "Needs hyzer-kiosk built in the same configuration, beside hyzer-bench.")
        @OptionGroup var data: DataOption
        @Option(
            name: .customLong("idle-seconds"),
            help: "How long the idle kiosk runs (default: $HYZER_BENCH_IDLE_SECONDS, else 60).")
        var idleSeconds: Double?

        func validate() throws {
            if let idleSeconds, idleSeconds <= 0 { throw ValidationError("--idle-seconds must be above 0") }
        }

        func run() async throws {
            let idle = idleSeconds ?? Double(ProcessInfo.processInfo.environment["HYZER_BENCH_IDLE_SECONDS"] ?? "") ?? 60
            try await data.run("render") { try await RenderBenchmark.run(in: $0, idleSeconds: idle) }
        }
    }

    struct RenderInstructions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render-instructions",
            abstract: "Instructions per 20-row reshuffle frame at 1920x1080 (software renderer), counted by callgrind.",
            discussion: "Runs itself under valgrind --tool=callgrind; goal: p99 at most 8 million (issue 13).")
        @Option(help: "Reshuffles counted (each about 14 frames).") var cycles = 6
        @Flag(name: .customLong("callgrind-inner"), help: .hidden) var inner = false

        func run() async throws {
            if inner { return try runInner() }
            try emit(try await RenderInstructionsBenchmark.run(cycles: cycles))
        }

        /// The counted run, under callgrind (see `HyzerBench.main`).
        func runInner() throws {
            guard let assets = HyzerPaths.assetsDirectory() else { throw BenchError("cannot find assets/") }
            try RenderInstructionsBenchmark.inner(cycles: cycles, fonts: assets.appendingPathComponent("fonts"))
        }
    }

    struct SyncLatency: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync-latency",
            abstract: "Cross-device latency (NFR2), recovery after a dead zone (NFR11), server ingest; loopback server.")
        @OptionGroup var data: DataOption

        func run() async throws {
            try await data.run("sync") { try await SyncBenchmark.run(in: $0) }
        }
    }

    struct ServerLoad: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "server-load",
            abstract: "Many groups scoring at once against real hyzer-server processes: ingest events/s, cross-device p50/p99.")
        @Option(help: "Groups, each with one round in play.") var groups = 100
        @Option(help: "Devices per group: one watches (poke socket, pulls), the others score.") var devices = 10
        @Option(help: "Server instances (more than one needs --database).") var instances = 1
        @Option(help: "A PostgreSQL database (postgres://…) to serve from, emptied first; default SQLite.")
        var database: String?
        @Option(help: "Events a second offered by all scorers together.") var rate = 1000.0
        @Option(help: "Seconds measured (after 3 s of warm-up).") var seconds = 20.0
        @OptionGroup var data: DataOption

        func validate() throws {
            guard groups > 0, devices > 1, instances > 0, rate > 0, seconds > 0 else {
                throw ValidationError("--groups, --instances, --rate and --seconds must be positive, --devices at least 2")
            }
            guard instances == 1 || database != nil else {
                throw ValidationError("several instances share one database: give --database postgres://…")
            }
        }

        func run() async throws {
            let location: PostgresLocation?
            do { location = try database.map { try PostgresLocation(url: $0) } } catch {
                throw ValidationError("\(error)")
            }
            let options = ServerLoadBenchmark.Options(
                groups: groups, devices: devices, instances: instances, database: location, rate: rate, seconds: seconds)
            try await data.run("server-load") { try await ServerLoadBenchmark.run(options, in: $0) }
        }
    }

    struct NameEntry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "name-entry",
            abstract: "Knob actions (detents + presses) to enter each name in a list with the name wheel (issue 14).",
            discussion: """
                Replays the wheel's own layout with the bundled first-names list behind it. median_actions and \
                p90_actions are over the names on that list; actions_per_letter_unlisted over the rest.
                """)
        @Option(help: "Names, one a line (default: assets/bench/world-first-names.txt, not the bundled list).")
        var names: String?
        @Option(
            help: """
                Weighted names (name<TAB>weight) whose people the people-weighted medians pick from (default: the \
                bundled list itself), to compare two lists on the same people.
                """)
        var people: String?

        func run() throws {
            guard let assets = HyzerPaths.assetsDirectory() else {
                throw ValidationError("cannot find the assets folder; run from the checkout or set HYZER_ASSETS")
            }
            let file =
                names.map { URL(fileURLWithPath: $0) }
                ?? assets.appendingPathComponent("bench/world-first-names.txt")
            try emit(
                try NameEntryBenchmark.run(
                    names: file, bundled: assets.appendingPathComponent("first-names.tsv"),
                    people: people.map { URL(fileURLWithPath: $0) }))
        }
    }

    struct Soak: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Memory and CPU of a real kiosk over a long burst of remote scores through a real server (issue 12).",
            discussion: """
                Needs hyzer-kiosk and hyzer-server built in the same configuration, beside hyzer-bench. Not in \
                `make bench` by default (it runs for minutes): `make bench BENCHMARKS=soak`.
                """)
        @OptionGroup var data: DataOption
        @Option(help: "How long the writes go on.") var minutes = 10.0
        @Option(help: "Writes per second (scores, corrections and conflicting scores).") var rate = 10.0
        @Flag(help: "The kiosk headless (SDL's software renderer) instead of in an X11 window under Xvfb.") var headless = false
        @Flag(
            name: .customLong("single-round"),
            help: "One round, never finished: the writes keep correcting it (its events grow with the run).")
        var singleRound = false
        @Option(
            name: .customLong("warmup-minutes"),
            help: "Samples before this are left out of the growth figures (default: 5, or a third of a shorter run).")
        var warmupMinutes: Double?

        func validate() throws {
            guard minutes > 0 else { throw ValidationError("--minutes must be above 0") }
            if let warmupMinutes, !(0..<minutes).contains(warmupMinutes) {
                throw ValidationError("--warmup-minutes must be at least 0 and below --minutes")
            }
            guard rate > 0, rate <= 1_000 else { throw ValidationError("--rate must be above 0 and at most 1000") }
        }

        func run() async throws {
            let settings = SoakBenchmark.Settings(
                minutes: minutes, rate: rate, headless: headless, singleRound: singleRound, warmupMinutes: warmupMinutes)
            let workspace = try data.workspace("soak")
            defer { workspace.finish() }
            print(try await SoakBenchmark.run(in: workspace, settings).json())
        }
    }
}
