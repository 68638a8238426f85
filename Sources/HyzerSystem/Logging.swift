import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One way every executable logs (`hyzer-kiosk`, `hyzer-server`, `hyzer`, `hyzer-bench`):
/// swift-log bootstrapped once, at the level `--log-level` names, to standard error. Under
/// systemd, standard error is the journal's stream, and each line starts with its syslog
/// priority (`<3>` for an error, sd-daemon(3)), so `journalctl -p warning` finds the
/// kiosk's warnings; anywhere else a line reads as a person would want it.
public enum HyzerLogging {
    /// The levels `--log-level` takes, from the most said to the least.
    public static let levels = Logger.Level.allCases.map(\.rawValue)

    /// The level named `text`, or an error that lists the valid ones.
    public static func level(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw LogLevelError(text: text)
        }
        return level
    }

    /// The level a program runs at: its `--log-level` flag, else its settings file's
    /// `log_level`, else info. Both were checked when they were read.
    public static func level(flag: String?, file: ConfigFile?) -> Logger.Level {
        (flag ?? file?.string("log_level")).flatMap { try? level($0) } ?? .info
    }

    /// Takes `--log-level LEVEL` (or `--log-level=LEVEL`) out of `arguments`, wherever it
    /// stands: the tools with many subcommands (`hyzer`, `hyzer-bench`) take it once, before
    /// their parser, instead of on each subcommand. Nil when it is not there.
    public static func takeLevel(from arguments: inout [String]) throws -> Logger.Level? {
        var found: Logger.Level?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--log-level" {
                guard index + 1 < arguments.count else { throw LogLevelError(text: "") }
                found = try level(arguments[index + 1])
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--log-level=") {
                found = try level(String(argument.dropFirst("--log-level=".count)))
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Whether `bootstrap` has run (its lock also orders two first calls from two threads).
    private static let bootstrapped = Mutex(false)

    /// Sets the process's log handler, once: a second call does nothing (swift-log would
    /// crash on it). `journal` is nil to ask the environment (`$JOURNAL_STREAM`).
    public static func bootstrap(level: Logger.Level, journal: Bool? = nil) {
        bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            let toJournal = journal ?? standardErrorIsTheJournal()
            LoggingSystem.bootstrap { label in
                var handler = LineLogHandler(label: label, journal: toJournal)
                handler.logLevel = level
                return handler
            }
        }
    }

    /// systemd sets `$JOURNAL_STREAM` to the device and inode of the stream it connected;
    /// it is the journal only while standard error is still that stream (a child whose
    /// stderr was redirected inherits the variable, not the journal).
    public static func standardErrorIsTheJournal(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// syslog's priority for a level (sd-daemon(3)'s `<N>` prefixes).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}

public struct LogLevelError: Error, CustomStringConvertible {
    public var text: String
    public var description: String {
        "unknown log level \"\(text)\"; choose one of \(HyzerLogging.levels.joined(separator: ", "))"
    }
}

/// One line a message, to standard error: `<6>hyzer.kiosk: message key=value` for the
/// journal (which stamps its own time and unit), `2026-11-26T04:10:00Z info hyzer.kiosk:
/// message key=value` elsewhere.
public struct LineLogHandler: LogHandler {
    public let label: String
    public let journal: Bool
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    /// Where lines go; tests pass their own.
    let write: @Sendable (String) -> Void

    public init(label: String, journal: Bool, write: @escaping @Sendable (String) -> Void = LineLogHandler.standardError) {
        self.label = label
        self.journal = journal
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        // One journal entry a message: a newline inside it would start a new entry
        // without the priority.
        let message = "\(event.message)\(fields)".replacingOccurrences(of: "\n", with: " ⏎ ")
        if journal {
            write("<\(HyzerLogging.priority(event.level))>\(label): \(message)\n")
        } else {
            let time = Date().formatted(.iso8601)
            write("\(time) \(event.level) \(label): \(message)\n")
        }
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(line.utf8))
    }
}
