// hyzer-bench NAME: release-mode benchmarks. Each prints progress, then one JSON object
// of figures as its last line. Figures go to docs/benchmarks.md; nothing here asserts.
import Foundation

let benchmarks: [String: @Sendable () async throws -> String] = [
    "standings": StandingsBenchmark.run,
    "store": StoreBenchmark.run,
    "sync-latency": SyncBenchmark.run,
    "knob-latency": KnobLatencyBenchmark.run,
    "knob-accuracy": KnobAccuracyBenchmark.run,
    "render": RenderBenchmark.run,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let benchmark = benchmarks[name] else {
    let names = benchmarks.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: hyzer-bench NAME   (one of: \(names))\n".utf8))
    exit(2)
}
do {
    let json = try await benchmark()
    print(json)
} catch {
    FileHandle.standardError.write(Data("hyzer-bench \(name): \(error)\n".utf8))
    exit(1)
}
