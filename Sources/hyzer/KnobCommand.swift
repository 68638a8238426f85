import ArgumentParser
import Foundation
import KioskHardware

/// `hyzer knob …`: the encoder's traces, offline. The format is in docs/knob-trace-format.md.
struct Knob: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "knob",
        abstract: "Decode rotary-encoder traces, or generate synthetic ones with realistic contact chatter.",
        subcommands: [Decode.self, Generate.self]
    )
}

/// `full` or `half`, as a command-line value.
enum KnobModeArgument: String, ExpressibleByArgument, CaseIterable {
    case full, half

    var mode: QuadratureMode { self == .full ? .full : .half }
}

enum KnobTurnArgument: String, ExpressibleByArgument, CaseIterable {
    case cw, ccw, mixed

    var plan: TurnPlan { TurnPlan(rawValue: rawValue)! }
}

/// Writes text to standard output in large chunks: traces run to hundreds of thousands of lines.
struct KnobLineWriter {
    private var buffer = ""
    private let handle: FileHandle

    init(_ handle: FileHandle = .standardOutput) {
        self.handle = handle
        buffer.reserveCapacity(1 << 16)
    }

    mutating func line(_ text: String) {
        buffer += text
        buffer += "\n"
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        handle.write(Data(buffer.utf8))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A decoded knob event as `hyzer knob decode` prints it:
/// `{"direction":"cw","event":"detent","t_ns":5}`; `direction` only on detents, `afterLongPress`
/// only on releases.
struct KnobEventLine: Encodable {
    var event: String
    var direction: String?
    var tNs: UInt64
    var afterLongPress: Bool?

    enum CodingKeys: String, CodingKey {
        case event, direction
        case tNs = "t_ns"
        case afterLongPress
    }

    init(_ knobEvent: KnobEvent) {
        tNs = knobEvent.timestampNs
        switch knobEvent {
        case .detent(let direction, _):
            event = "detent"
            self.direction = direction.rawValue
        case .press: event = "press"
        case .longPress: event = "longPress"
        case .release(_, let afterLongPress):
            event = "release"
            self.afterLongPress = afterLongPress
        }
    }
}

/// One JSON object per line through `JSONEncoder`, keys sorted so the output is stable.
///
/// Trace records (`hyzer knob generate`) are the exception: they stay on the hand-written
/// `KnobTraceRecord.jsonLine`, the hot path. Measured in release on the project's 2-core
/// machine, 300,000 records: 0.5 µs a line by hand against 2.9 µs through `JSONEncoder`
/// (5.6x; 7x in a second run), and a 10,000-detent trace at 100/s is 189,000 lines, so about
/// 0.1 s against 0.55 s of encoding.
struct JSONLineEncoder {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension Knob {
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode a knob trace: one JSON line per event, then {\"ccw\":N,\"cw\":N,\"longPresses\":N,\"presses\":N}.",
            discussion: """
                Events are detents ({"event": "detent", "direction": "cw"|"ccw", "t_ns": …}, stamped with the \
                edge that completed them), and press, release (with afterLongPress) and longPress. The lines are \
                taken to start at rest (A = B = SW = 1) and to keep their last levels after the trace ends, so a \
                trailing release or long press still resolves. A malformed line stops decoding with its line number.
                """
        )

        @Argument(help: "The trace (JSON lines); - reads standard input.")
        var trace: String

        @Option(help: "Detents per quadrature cycle: full (one) or half (two).")
        var mode: KnobModeArgument = .full

        @Flag(help: "Swap clockwise and counter-clockwise (A and B wired the other way round).")
        var swapDirection = false

        @Option(help: "Switch debounce, in ms.")
        var debounceMs: Double = 5

        @Option(help: "Hold time for a long press, in ms.")
        var longPressMs: Double = 600

        func validate() throws {
            guard debounceMs >= 0, debounceMs < 10_000 else { throw ValidationError("--debounce-ms must be between 0 and 10000") }
            guard longPressMs > debounceMs, longPressMs < 600_000 else {
                throw ValidationError("--long-press-ms must be longer than --debounce-ms and under 600000")
            }
        }

        func run() throws {
            let records = try KnobTrace.read(path: trace)
            let config = KnobConfig(
                mode: mode.mode,
                swapDirection: swapDirection,
                button: ButtonTiming(debounceNs: UInt64(debounceMs * 1e6), longPressNs: UInt64(longPressMs * 1e6))
            )
            let events = KnobDecoder.decode(records.map(\.edge), config: config)
            let json = JSONLineEncoder()
            var output = KnobLineWriter()
            for event in events { output.line(try json.line(KnobEventLine(event))) }
            output.line(try json.line(KnobSummary(events)))
            output.flush()
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a synthetic knob trace with contact chatter and wiggles; deterministic for a seed.",
            discussion: """
                The ground truth goes to standard error as one line in the form of `hyzer knob decode`'s summary, \
                so `hyzer knob decode` on the trace should print the same last line. --truth FILE also writes \
                every true detent as a decode-style JSON line, followed by that summary.
                """
        )

        @Option(help: "Number of detents to turn.")
        var detents = 100

        @Option(help: "Average detents per second.")
        var rate: Double = 100

        @Option(help: "Longest contact chatter after a transition, in µs (chatter never reaches the next transition).")
        var bounceUs: Double = 500

        @Option(help: "Probability per detent of a wiggle: a partial turn back to where it started.")
        var wiggle: Double = 0.05

        @Option(help: "Random seed; the same seed gives the same trace.")
        var seed: UInt64 = 1

        @Option(help: "Detents per quadrature cycle: full or half.")
        var mode: KnobModeArgument = .full

        @Option(help: "Turning direction: cw, ccw, or mixed runs.")
        var turn: KnobTurnArgument = .mixed

        @Option(help: "Short presses to place between detents.")
        var presses = 0

        @Option(help: "Long presses (held 0.8–1.5 s) to place between detents.")
        var longPresses = 0

        @Option(help: "Write the trace here instead of standard output.")
        var out: String?

        @Option(help: "Write the true detents and the summary here (JSON lines).")
        var truth: String?

        private var options: TraceGeneratorOptions {
            TraceGeneratorOptions(
                detents: detents, rateHz: rate, bounceUs: bounceUs, wiggle: wiggle, seed: seed,
                mode: mode.mode, turn: turn.plan, presses: presses, longPresses: longPresses
            )
        }

        func validate() throws {
            do {
                try options.validate()
            } catch {
                throw ValidationError(error.description)
            }
        }

        func run() throws {
            let trace = try TraceGenerator.generate(options)
            let json = JSONLineEncoder()
            try write(to: out) { output in
                // By hand: the hot path (see JSONLineEncoder).
                for record in trace.records { output.line(record.jsonLine) }
            }
            if let truth {
                try write(to: truth) { output in
                    for detent in trace.truth { output.line(try json.line(KnobEventLine(detent.event))) }
                    output.line(try json.line(trace.summary))
                }
            }
            FileHandle.standardError.write(Data((try json.line(trace.summary) + "\n").utf8))
        }

        private func write(to path: String?, _ body: (inout KnobLineWriter) throws -> Void) throws {
            guard let path, path != "-" else {
                var output = KnobLineWriter()
                try body(&output)
                output.flush()
                return
            }
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw ValidationError("cannot write \(path)")
            }
            defer { try? handle.close() }
            var output = KnobLineWriter(handle)
            try body(&output)
            output.flush()
        }
    }
}
