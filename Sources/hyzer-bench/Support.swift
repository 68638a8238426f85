import ArgumentParser
import Foundation
import HyzerKit
import HyzerSync

/// Monotonic time in nanoseconds.
func nowNs() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Nearest-rank percentile of an unsorted sample.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

/// A benchmark's result: named figures, printed by `hyzer-bench` as one JSON object (keys
/// sorted) on the last line of standard output, for docs/benchmarks.md and scripts.
/// Figures are rounded to three decimals; one that could not be measured (NaN, infinite)
/// is `null`.
struct Figures: Encodable, ExpressibleByDictionaryLiteral {
    var values: [String: Double]

    init(_ values: [String: Double]) { self.values = values }
    init(dictionaryLiteral elements: (String, Double)...) { values = Dictionary(elements) { $1 } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        for (name, value) in values {
            let key = NamedCodingKey(name)
            if !value.isFinite {
                try container.encodeNil(forKey: key)
            } else if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value), forKey: key)  // counts print as 10000, not 10000.0
            } else {
                try container.encode(round3(value), forKey: key)
            }
        }
    }

    /// The JSON line.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// `--data DIR`, for the benchmarks that write databases.
struct DataOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Write the benchmark's databases under DIR (new or empty) and keep them there for inspection.",
            discussion: "By default they go to a fresh temporary directory, removed at the end.",
            valueName: "DIR"))
    var data: String?

    /// Where this run writes: `--data DIR`, or a new temporary directory named after the benchmark.
    func workspace(_ benchmark: String) throws -> Workspace {
        guard let data, !data.isEmpty else {
            let temporary = FileManager.default.temporaryDirectory
                .appendingPathComponent("hyzer-bench-\(benchmark)-\(UUID().uuidString)", isDirectory: true)
            return Workspace(url: temporary, keep: false)
        }
        let url = URL(fileURLWithPath: data, isDirectory: true)
        // Earlier data would be counted in (a second store run would find 500 rounds).
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: url.path), !existing.isEmpty {
            throw ValidationError("--data \(data) is not empty; give a new or empty directory")
        }
        return Workspace(url: url, keep: true)
    }

    /// Runs a benchmark in its workspace, prints its figures, then removes the workspace
    /// unless it is `--data DIR`: the one sequence every benchmark that writes files follows.
    func run(_ benchmark: String, _ body: (Workspace) async throws -> Figures) async throws {
        let workspace = try workspace(benchmark)
        defer { workspace.finish() }
        try HyzerBench.emit(try await body(workspace))
    }
}

/// A benchmark's working directory.
struct Workspace: Sendable {
    /// The directory itself; the benchmark creates what it needs inside.
    let url: URL
    /// True for `--data DIR`: nothing is removed afterwards.
    let keep: Bool

    func subdirectory(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: true) }

    /// Removes a temporary workspace; says where a kept one is.
    func finish() {
        if keep {
            log("data kept in \(url.path)")
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }
}

/// A project executable built beside hyzer-bench, in the same configuration.
func siblingBinary(_ name: String) throws -> URL {
    let own = URL(fileURLWithPath: HyzerPaths.runningExecutable ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent()
    let url = own.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
        throw BenchError("\(url.path) is missing: build it in the same configuration (swift build -c release --product \(name))")
    }
    return url
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// A benchmark that cannot go on, in one line.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
}

extension SyncEngine {
    /// Runs the engine's service in a task, as the kiosk's ServiceGroup does; `stop()`
    /// on the task ends it.
    func launch() -> Task<Void, Never> { Task { try? await self.run() } }
}

extension Task where Success == Void, Failure == Never {
    /// Cancels the run and waits for it to return.
    func stop() async {
        cancel()
        await value
    }
}
