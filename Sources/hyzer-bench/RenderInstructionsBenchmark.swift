import CValgrind
import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Subprocess

/// `hyzer-bench render-instructions` (issue 13 item 7): instructions per reshuffle frame at
/// 1920×1080 with the software renderer, counted by callgrind. Wall-clock frame times on a
/// loaded x86 machine say little about a Pi 4's 1.5 GHz Cortex cores; an instruction count is the same
/// whatever the machine's load, and scales to the Pi by its instructions per second.
///
/// The benchmark runs itself under `valgrind --tool=callgrind --instr-atstart=no`: the inner
/// run warms the text cache with one reshuffle, then counts each frame of the next ones alone
/// (instrumentation on around the draw and the present, one dump a frame), and the outer
/// run reads the dumps.
enum RenderInstructionsBenchmark {
    static let innerFlag = "--callgrind-inner"

    static func run(cycles: Int) async throws -> Figures {
        guard hyzer_callgrind_available() != 0 else {
            throw BenchError("built without valgrind's headers (apt install valgrind, then rebuild)")
        }
        let dumps = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-callgrind-\(UUID())")
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dumps) }
        // Valgrind 3.19 (Debian 12) cannot read the DWARF 5 the Swift toolchain writes and
        // gives up on the binary: it runs a copy without the debug sections (the code and the
        // symbols callgrind names functions by stay).
        let stripped = dumps.appendingPathComponent("hyzer-bench")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: HyzerPaths.runningExecutable ?? CommandLine.arguments[0]), to: stripped)
        let strip = try await Subprocess.run(
            .name("strip"), arguments: ["--strip-debug", stripped.path], output: .discarded, error: .discarded)
        guard strip.terminationStatus.isSuccess else { throw BenchError("strip --strip-debug failed (binutils)") }
        // The copy is not beside the checkout's assets: tell it where they are.
        let assets = HyzerPaths.assetsDirectory()?.path
        let started = ContinuousClock.now
        let callgrind = try await Subprocess.run(
            .name("valgrind"),
            arguments: [
                "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(dumps.path)/frame",
                stripped.path, "render-instructions", innerFlag, "--cycles", String(cycles),
            ],
            environment: .inherit.updating(["HYZER_ASSETS": assets]), output: .discarded, error: .discarded)
        guard callgrind.terminationStatus.isSuccess else {
            throw BenchError("valgrind --tool=callgrind failed (\(callgrind.terminationStatus))")
        }
        // One dump a frame: frame.1, frame.2, ... (the final dump at exit is "frame", unsuffixed).
        let frames = try FileManager.default.contentsOfDirectory(atPath: dumps.path).filter { $0.hasPrefix("frame.") }
        var counts: [Double] = []
        for name in frames {
            let text = try String(contentsOf: dumps.appendingPathComponent(name), encoding: .utf8)
            // "totals:" is the dump's count; its header's "summary:" stays 0 under client requests.
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") }),
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { throw BenchError("no instruction total in callgrind's \(name)") }
            counts.append(value)
        }
        guard !counts.isEmpty else { throw BenchError("callgrind wrote no per-frame dumps") }
        log("render-instructions: \(counts.count) frames counted under callgrind in \(started.duration(to: .now))")
        return [
            "frames": Double(counts.count),
            "instructions_p50_millions": (percentile(counts, 50) / 1e6 * 100).rounded() / 100,
            "instructions_p99_millions": (percentile(counts, 99) / 1e6 * 100).rounded() / 100,
            "instructions_max_millions": ((counts.max() ?? 0) / 1e6 * 100).rounded() / 100,
        ]
    }

    /// Under callgrind: the reshuffle of `RenderBenchmark.reshuffleFrames`, each frame counted.
    static func inner(cycles: Int, fonts: URL) throws {
        guard hyzer_running_on_valgrind() != 0 else { throw BenchError("\(innerFlag) is for the run under callgrind") }
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        let wallClock = Date(timeIntervalSince1970: 1_800_000_000)
        try RenderBenchmark.reshuffles(cycles + 1, on: display, wallClock: wallClock) { cycle, drawAndPresent in
            if cycle > 0 { hyzer_callgrind_start() }
            drawAndPresent()
            if cycle > 0 { hyzer_callgrind_stop_and_dump() }
        }
    }
}
