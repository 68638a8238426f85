// The knob's benchmarks: tick latency through the real decode → buzzer path under CPU load, and
// decoding accuracy on noisy synthetic traces. Figures go to docs/benchmarks.md ("Knob").
import Foundation
import KioskHardware
import Synchronization

/// `hyzer-bench knob-latency`: ≥ 10,000 detents replayed in real time by the simulated backend
/// through `KnobDriver` (decoder, buzzer, fake output line), while one busy "renderer" thread per
/// core keeps every core loaded.
///
/// Latency per detent = (start of the first buzzer pulse at or after the detent's completing
/// edge) − (that edge's timestamp). The edge is stamped with its scheduled time, like a kernel
/// interrupt timestamp, so the input thread's wake-up delay under load is included. A detent
/// whose tick was folded into a queued pulse is charged until that pulse starts.
enum KnobLatencyBenchmark {
    static let detents = 10_000
    /// Detents per second. With the 1 ms tick + 1 ms gap used here, ticks at this pace do not
    /// queue behind each other, so the figure is the path's latency rather than the haptic
    /// pattern's; the default 6 ms + 8 ms tick would make every detent wait on the previous pulse
    /// beyond 71 detents/s (by design: that is the coalescing).
    static let rateHz = 300.0
    static let timing = BuzzerTiming(tickNs: 1_000_000, minGapNs: 1_000_000)

    /// `hyzer-bench knob-latency [--normal] [--no-load] [--rate HZ] [--detents N]`.
    /// By default the knob's threads ask for the kiosk's realtime priority, as `KnobDriver` does;
    /// `--normal` measures plain time-sharing instead.
    struct Settings {
        var detents = KnobLatencyBenchmark.detents
        var rateHz = KnobLatencyBenchmark.rateHz
        var priority = KnobThreadPriority.kioskDefault
        var load = true
    }

    static func run(_ settings: Settings) async throws -> Figures {
        let options = TraceGeneratorOptions(
            detents: settings.detents, rateHz: settings.rateHz, bounceUs: 500, wiggle: 0.05, seed: 2026)
        let trace = try TraceGenerator.generate(options)
        knobLog(
            "knob-latency: \(trace.truth.count) detents, \(trace.records.count) edges over \(String(format: "%.1f", Double(trace.durationNs) / 1e9)) s at \(Int(settings.rateHz))/s, chatter ≤ 500 µs, \(settings.priority) priority"
        )

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let load = RendererLoad(threads: settings.load ? cores : 0)
        load.start()
        knobLog("knob-latency: \(settings.load ? cores : 0) renderer threads busy")

        let backend = SimulatedKnobBackend(records: trace.records, pacing: .originalTiming)
        let driver = KnobDriver(backend: backend, buzzerTiming: timing, priority: settings.priority)
        // The driver is a service: it runs until the replay ends, then stops its threads.
        let running = Task { try await driver.run() }
        var decoded: [UInt64] = []
        decoded.reserveCapacity(settings.detents)
        for await event in driver.events {
            if case .detent(_, let t) = event { decoded.append(t) }
        }
        let outcome = await running.result
        knobLog("knob-latency: input thread realtime: \(driver.inputThreadIsRealtime == true ? "yes" : "no")")
        let frames = load.stop()
        try outcome.get()

        let changes = backend.recorder.changes
        let starts = changes.filter(\.on).map(\.atNs)
        let ends = changes.filter { !$0.on }.map(\.atNs)
        var latenciesUs: [Double] = []
        latenciesUs.reserveCapacity(decoded.count)
        var unticked = 0
        var next = 0
        // Detents that arrived while the previous pulse or its gap was still running had to wait
        // for it (by design); the rest show the decode → buzzer path alone.
        var pathOnlyMaxUs = 0.0
        var queued = 0
        for t in decoded {
            while next < starts.count, starts[next] < t { next += 1 }
            if next < starts.count {
                let latency = Double(starts[next] - t) / 1000
                latenciesUs.append(latency)
                if next > 0, next - 1 >= ends.count || t < ends[next - 1] + timing.minGapNs {
                    queued += 1
                } else {
                    pathOnlyMaxUs = max(pathOnlyMaxUs, latency)
                }
            } else {
                unticked += 1
            }
        }
        let stats = driver.buzzer.stats
        let sorted = latenciesUs.sorted()
        knobLog(
            "knob-latency: decoded \(decoded.count) of \(trace.truth.count) detents, \(starts.count) pulses, "
                + "ticks immediate \(stats.ticksImmediate) / deferred \(stats.ticksDeferred) / coalesced \(stats.ticksCoalesced), unticked \(unticked)"
        )
        knobLog(
            "knob-latency: mean \(knobFixed(sorted.reduce(0, +) / Double(max(sorted.count, 1)))) µs, "
                + "p90 \(knobFixed(knobPercentile(sorted, 90))) µs, renderer frames \(frames)")
        knobLog(
            "knob-latency: \(queued) detents arrived during the previous pulse or its gap and waited for it; "
                + "max over the other \(decoded.count - queued): \(knobFixed(pathOnlyMaxUs)) µs")
        guard unticked == 0, decoded.count == trace.truth.count else {
            throw KnobBenchmarkError("\(unticked) detents got no tick; decoded \(decoded.count) of \(trace.truth.count)")
        }
        return [
            "p50_us": knobPercentile(sorted, 50), "p99_us": knobPercentile(sorted, 99),
            "max_us": sorted.last ?? .nan, "detents": Double(decoded.count),
        ]
    }
}

/// `hyzer-bench knob-accuracy`: decoded against true detents on generated noisy traces (up to
/// 1 ms of contact chatter, wiggles) at 100, 500 and 1,000 detents/s, in both modes, through the
/// simulated backend and `KnobDriver` on trace time. A decoded detent counts only if a true one
/// has the same direction and the same completing edge; anything else is a phantom.
enum KnobAccuracyBenchmark {
    static let rates: [Double] = [100, 500, 1000]
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]
    static let detentsPerTrace = 10_000

    static func run() async throws -> Figures {
        var figures: [String: Double] = [:]
        var totals = (truth: 0, decoded: 0, matched: 0, phantoms: 0)
        for mode in QuadratureMode.allCases {
            for rate in rates {
                var row = (truth: 0, decoded: 0, matched: 0, phantoms: 0, edges: 0)
                let started = DispatchTime.now().uptimeNanoseconds
                for seed in seeds {
                    let trace = try TraceGenerator.generate(
                        TraceGeneratorOptions(
                            detents: detentsPerTrace, rateHz: rate, bounceUs: 1000, wiggle: 0.1, seed: seed, mode: mode
                        ))
                    let decoded = try await replay(trace, mode: mode)
                    let (matched, phantoms) = match(decoded, against: trace.truth)
                    row.truth += trace.truth.count
                    row.decoded += decoded.count
                    row.matched += matched
                    row.phantoms += phantoms
                    row.edges += trace.records.count
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                let accuracy = 100 * Double(row.matched) / Double(row.truth)
                knobLog(
                    "knob-accuracy: \(mode) \(Int(rate))/s: \(row.matched)/\(row.truth) detents (\(knobFixed(accuracy))%), "
                        + "\(row.truth - row.matched) missed, \(row.phantoms) phantoms; \(row.edges) edges, "
                        + "\(Int(Double(row.edges) / seconds)) edges/s")
                figures["\(mode)_\(Int(rate))_pct"] = accuracy
                figures["\(mode)_\(Int(rate))_phantoms"] = Double(row.phantoms)
                totals.truth += row.truth
                totals.decoded += row.decoded
                totals.matched += row.matched
                totals.phantoms += row.phantoms
            }
        }
        figures["accuracy_pct"] = 100 * Double(totals.matched) / Double(totals.truth)
        figures["detents"] = Double(totals.truth)
        figures["missed"] = Double(totals.truth - totals.matched)
        figures["phantoms"] = Double(totals.phantoms)
        return Figures(figures)
    }

    /// Replays a trace on trace time through the driver and returns the detents it reported.
    static func replay(_ trace: GeneratedTrace, mode: QuadratureMode) async throws -> [Detent] {
        let backend = SimulatedKnobBackend(records: trace.records, pacing: .asFastAsPossible)
        let driver = KnobDriver(backend: backend, config: KnobConfig(mode: mode))
        let running = Task { try await driver.run() }
        var detents: [Detent] = []
        detents.reserveCapacity(trace.truth.count)
        for await event in driver.events {
            if case .detent(let direction, let t) = event { detents.append(Detent(direction: direction, timestampNs: t)) }
        }
        try await running.value
        return detents
    }

    /// Both lists are in time order; a match is the same direction at the same timestamp.
    static func match(_ decoded: [Detent], against truth: [Detent]) -> (matched: Int, phantoms: Int) {
        var matched = 0
        var phantoms = 0
        var i = 0
        var j = 0
        while i < decoded.count {
            if j < truth.count, truth[j].timestampNs < decoded[i].timestampNs {
                j += 1  // missed
            } else if j < truth.count, truth[j] == decoded[i] {
                matched += 1
                i += 1
                j += 1
            } else {
                phantoms += 1
                i += 1
            }
        }
        return (matched, phantoms)
    }
}

/// Stand-in for the renderer: one thread per core, each drawing frames into its own framebuffer
/// (fill, blend, scroll) flat out, so the knob's input thread has to be scheduled in between.
final class RendererLoad: Sendable {
    private struct Counters {
        var stopping = false
        var frames = 0
        var running = 0
    }

    private let threadCount: Int
    private let counters = Mutex(Counters())

    init(threads: Int) { threadCount = max(0, threads) }

    func start() {
        counters.withLock { $0.running = threadCount }
        for index in 0..<threadCount {
            let thread = Thread { [self] in render(seed: UInt32(index)) }
            thread.name = "renderer-\(index)"
            thread.start()
        }
    }

    /// Stops the threads and returns the frames they drew.
    func stop() -> Int {
        counters.withLock { $0.stopping = true }
        while counters.withLock({ $0.running > 0 }) { usleep(1000) }
        return counters.withLock { $0.frames }
    }

    private func render(seed: UInt32) {
        // 800 × 480 RGBA, the kiosk panel.
        let width = 800
        let height = 480
        var framebuffer = [UInt32](repeating: 0, count: width * height)
        var frame: UInt32 = seed
        while !counters.withLock({ $0.stopping }) {
            frame &+= 1
            framebuffer.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        let old = pixels[row + x]
                        let fresh = UInt32(truncatingIfNeeded: x &* 3 &+ y &* 5) &+ frame
                        // Blend half the old pixel with the new one, per channel.
                        pixels[row + x] = ((old >> 1) & 0x7F7F_7F7F) &+ ((fresh >> 1) & 0x7F7F_7F7F)
                    }
                }
            }
            counters.withLock { $0.frames += 1 }
        }
        counters.withLock { $0.running -= 1 }
    }
}

struct KnobBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

private func knobLog(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// Nearest-rank percentile of sorted samples.
private func knobPercentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// A number for the log: at most three decimals.
private func knobFixed(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    let rounded = (x * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
