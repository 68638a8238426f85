import Foundation
import HyzerTestSupport
import Testing

/// `hyzer-bench` from outside: its subcommands and flags, and the JSON line it ends with.
@Suite struct BenchCommandTests {
    static let benchmarks = ["standings", "store", "history", "knob-latency", "knob-accuracy", "render", "sync-latency"]

    @Test func helpListsEveryBenchmark() async throws {
        let run = try await Binary.run("hyzer-bench", ["--help"])
        #expect(run.status == 0, "\(run.stderr)")
        for name in Self.benchmarks { #expect(run.stdout.contains(name), "\(name) missing from \(run.stdout)") }
    }

    @Test(arguments: benchmarks)
    func eachBenchmarkHasItsOwnHelp(name: String) async throws {
        let run = try await Binary.run("hyzer-bench", [name, "--help"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("USAGE: hyzer-bench \(name)"), "\(run.stdout)")
        let writesDatabases = ["store", "history", "render", "sync-latency"].contains(name)
        #expect(run.stdout.contains("--data <DIR>") == writesDatabases, "\(run.stdout)")
    }

    @Test func unknownBenchmarkAndBadFlagsAreRefused() async throws {
        let unknown = try await Binary.run("hyzer-bench", ["nonsense"])
        #expect(unknown.status != 0)
        let rate = try await Binary.run("hyzer-bench", ["knob-latency", "--rate", "0"])
        #expect(rate.status != 0)
        #expect(rate.stderr.contains("--rate"), "\(rate.stderr)")
    }

    /// A non-empty --data would mix old rows into the figures (a second store run would count 500 rounds).
    @Test func dataDirectoryMustBeNewOrEmpty() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-data-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent("leftover"))
        let run = try await Binary.run("hyzer-bench", ["store", "--data", dir.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("is not empty"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["leftover"])
    }

    @Test func figuresEndTheOutputAsOneJSONObject() async throws {
        let run = try await Binary.run("hyzer-bench", ["standings"])
        #expect(run.status == 0, "\(run.stderr)")
        let last = try #require(run.stdout.split(separator: "\n").last)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(Set(figures.keys) == ["p50_us", "p99_us"])
        let p50 = try #require(figures["p50_us"] as? Double)
        let p99 = try #require(figures["p99_us"] as? Double)
        #expect(p50 > 0 && p50 <= p99)
        #expect(run.stderr.contains("5000 recomputes"))
    }
}
