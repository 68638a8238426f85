import Foundation
import HyzerHarness
import HyzerSystem
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 13 item 3: every executable logs through one handler at `--log-level`, and under
/// systemd each line carries its syslog priority for the journal.
@Suite struct LoggingTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func handler(journal: Bool) -> LineLogHandler {
            LineLogHandler(label: "hyzer.test", journal: journal) { line in self.lines.withLock { $0.append(line) } }
        }
    }

    @Test func journalLinesStartWithTheirPriority() {
        let lines = Lines()
        var logger = Logger(label: "hyzer.test") { _ in lines.handler(journal: true) }
        logger.logLevel = .trace
        logger.error("disk full", metadata: ["path": "/var/lib/hyzer"])
        logger.warning("knob missing")
        logger.notice("joined")
        logger.info("first frame")
        logger.debug("two\nlines")
        logger.critical("database damaged")
        #expect(
            lines.all == [
                "<3>hyzer.test: disk full path=/var/lib/hyzer\n", "<4>hyzer.test: knob missing\n",
                "<5>hyzer.test: joined\n", "<6>hyzer.test: first frame\n", "<7>hyzer.test: two ⏎ lines\n",
                "<2>hyzer.test: database damaged\n",
            ])
    }

    @Test func elsewhereALineHasItsTimeAndLevel() throws {
        let lines = Lines()
        let logger = Logger(label: "hyzer.test") { _ in lines.handler(journal: false) }
        logger.warning("knob missing")
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix(" warning hyzer.test: knob missing\n"), "\(line)")
        #expect(!line.hasPrefix("<"))
    }

    @Test func theLevelIsTakenWhereverItStands() throws {
        var arguments = ["course", "list", "--log-level", "debug", "--json"]
        #expect(try HyzerLogging.takeLevel(from: &arguments) == .debug)
        #expect(arguments == ["course", "list", "--json"])
        arguments = ["--log-level=warning", "standings"]
        #expect(try HyzerLogging.takeLevel(from: &arguments) == .warning)
        #expect(arguments == ["standings"])
        arguments = ["score", "--", "--log-level", "x"]
        #expect(try HyzerLogging.takeLevel(from: &arguments) == nil, "after -- it is an argument")
        arguments = ["standings", "--log-level", "loud"]
        #expect(throws: LogLevelError.self) { try HyzerLogging.takeLevel(from: &arguments) }
        arguments = ["standings", "--log-level"]
        #expect(throws: LogLevelError.self) { try HyzerLogging.takeLevel(from: &arguments) }
    }

    /// `$JOURNAL_STREAM` counts only while standard error is still that stream. Negative
    /// control: the same device with another inode, as a child whose stderr was redirected.
    @Test func theJournalIsStandardErrorOnlyWhileItIsThatStream() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        let ours = "\(status.st_dev):\(status.st_ino)"
        #expect(HyzerLogging.standardErrorIsTheJournal(environment: ["JOURNAL_STREAM": ours]))
        #expect(!HyzerLogging.standardErrorIsTheJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino + 1)"]))
        #expect(!HyzerLogging.standardErrorIsTheJournal(environment: [:]))
        #expect(!HyzerLogging.standardErrorIsTheJournal(environment: ["JOURNAL_STREAM": "nonsense"]))
    }

    /// Each executable refuses an unknown level with the valid ones, before doing anything.
    @Test(arguments: [
        ("hyzer-kiosk", ["--headless", "--log-level", "loud"]),
        ("hyzer", ["--log-level", "loud", "standings"]),
        ("hyzer-server", ["serve", "--log-level", "loud"]),
        ("hyzer-bench", ["--log-level", "loud", "standings"]),
    ])
    func anUnknownLevelIsRefused(executable: String, arguments: [String]) async throws {
        let run = try await Binary.run(executable, arguments)
        #expect(run.status != 0)
        #expect(run.stderr.contains("unknown log level \"loud\""), "\(run.stderr)")
        #expect(run.stderr.contains("trace, debug, info, notice, warning, error, critical"), "\(run.stderr)")
    }

    /// The real kiosk, its standard error a file that `$JOURNAL_STREAM` names (as systemd
    /// connects it): every line it logs carries a priority, and `--log-level` filters.
    @Test func theKioskWritesJournalLinesUnderSystemd() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-journal-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let kiosk = try Binary.url("hyzer-kiosk").path
        func run(_ level: String) async throws -> [String] {
            let log = dir.appendingPathComponent("\(level).log").path
            let script = """
                exec 2>"$1"; export JOURNAL_STREAM="$(stat -c %d:%i "$1")"
                exec "$2" --headless --data "$3" --run-for 2 --log-level "$4"
                """
            let result = try await Binary.run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", script, "sh", log, kiosk, dir.appendingPathComponent("data").path, level])
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        let debug = try await run("debug")
        #expect(!debug.isEmpty, "the kiosk logged nothing at debug")
        for line in debug { #expect(line.range(of: #"^<[2-7]>hyzer"#, options: .regularExpression) != nil, "\(line)") }
        let quiet = try await run("critical")
        #expect(quiet.count < debug.count, "critical filtered nothing: \(quiet)")
    }
}
