import Foundation
import KioskCore

/// A headless run's script: knob input and time steps, one command per line.
/// Format: docs/kiosk-script-format.md.
public struct KioskScript: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case turn(Int)
        case press
        case longPress
        case tap(x: Double, y: Double)
        case wait(Millis)
        case snapshot(String)
        case expectScreen(String)
        /// Real time, up to the seconds given, for the kiosk's services (joining a group)
        /// to bring the screen to a phase (`Screen.phase`).
        case waitFor(String, seconds: Int)
        /// What a USB keyboard sends: text, or Enter / Backspace (`key enter`, `key backspace`).
        case type(TypedKey)
    }

    public var steps: [(line: Int, step: Step)]

    public static func == (a: KioskScript, b: KioskScript) -> Bool {
        a.steps.map(\.line) == b.steps.map(\.line) && a.steps.map(\.step) == b.steps.map(\.step)
    }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var line: Int
        public var message: String
        public var description: String { "script line \(line): \(message)" }
    }

    public init(parsing text: String) throws {
        var steps: [(Int, Step)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let command = words.first?.lowercased() else { continue }
            let args = Array(words.dropFirst())
            func int(_ i: Int) throws -> Int {
                guard args.count > i, let value = Int(args[i]) else {
                    throw ParseError(line: line, message: "\(command) needs a whole number")
                }
                return value
            }
            func expectArgs(_ n: Int) throws {
                guard args.count == n else {
                    throw ParseError(line: line, message: "\(command) takes \(n) argument\(n == 1 ? "" : "s"), got \(args.count)")
                }
            }
            switch command {
            case "turn":
                try expectArgs(1)
                steps.append((line, .turn(try int(0))))
            case "press":
                try expectArgs(0)
                steps.append((line, .press))
            case "long-press":
                try expectArgs(0)
                steps.append((line, .longPress))
            case "tap":
                try expectArgs(2)
                guard let x = Double(args[0]), let y = Double(args[1]) else {
                    throw ParseError(line: line, message: "tap needs two numbers: X Y")
                }
                steps.append((line, .tap(x: x, y: y)))
            case "wait":
                try expectArgs(1)
                let ms = try int(0)
                guard ms >= 0 else { throw ParseError(line: line, message: "wait cannot go back in time") }
                steps.append((line, .wait(Millis(ms))))
            case "snapshot":
                try expectArgs(1)
                steps.append((line, .snapshot(args[0])))
            case "expect-screen":
                try expectArgs(1)
                steps.append((line, .expectScreen(args[0])))
            case "type":
                // The rest of the line as typed, inner spaces and all.
                let text = content.drop { $0 == " " || $0 == "\t" }.dropFirst(command.count)
                    .trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { throw ParseError(line: line, message: "type needs the text to type") }
                steps.append((line, .type(.text(text))))
            case "key":
                try expectArgs(1)
                switch args[0].lowercased() {
                case "enter": steps.append((line, .type(.done)))
                case "backspace": steps.append((line, .type(.delete)))
                default: throw ParseError(line: line, message: "key is enter or backspace, not \(args[0])")
                }
            case "wait-for":
                try expectArgs(2)
                let seconds = try int(1)
                guard (1...600).contains(seconds) else {
                    throw ParseError(line: line, message: "wait-for waits 1 to 600 seconds")
                }
                steps.append((line, .waitFor(args[0], seconds: seconds)))
            default:
                throw ParseError(
                    line: line,
                    message:
                        "unknown command \"\(command)\" (turn, press, long-press, tap, type, key, wait, snapshot, expect-screen, wait-for)"
                )
            }
        }
        self.steps = steps
    }
}
