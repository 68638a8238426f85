import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program run with `posix_spawn`, for the test helpers that must stay synchronous (a
/// volume's `deinit` unmounts it) or talk to a child over its standard input. Everything else
/// runs children through HyzerHarness's `Binary` (swift-subprocess).
///
/// Not Foundation's `Process`: in Swift 6.3.1 its `run()` copies each `/proc/self/fd` entry
/// with a whole 256-byte name, reading past the end of glibc's readdir buffer once about
/// 1,350 descriptors are open, which this suite's parallel servers reach. It crashed CI's
/// test process so (stop 49; swift-corelibs-foundation #5472, fixed after 6.3).
public final class Command {
    public let pid: pid_t
    /// The child's standard input, or -1 when it reads /dev/null.
    private var input: Int32
    /// The child's standard output and error, both in one pipe.
    private let output: Int32
    private var status: Int32?

    /// Starts `path` with `arguments`; with `input`, its standard input is a pipe that
    /// `write` feeds.
    public init(_ path: String, _ arguments: [String], input withInput: Bool = false) throws {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard Self.channel(&fromChild) == 0 else { throw Self.errno() }
        if withInput, Self.channel(&toChild) != 0 {
            let error = Self.errno()
            close(fromChild[0])
            close(fromChild[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withInput {
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, nil, argv, environ)
        // The child has its copies (or never started): only the parent's ends stay open here.
        close(fromChild[1])
        if withInput { close(toChild[0]) }
        guard spawned == 0 else {
            close(fromChild[0])
            if withInput { close(toChild[1]) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        pid = child
        input = withInput ? toChild[1] : -1
        output = fromChild[0]
    }

    /// Runs `path` to its end: its exit status (128 + the signal when killed) and what it
    /// printed, standard output and error together.
    public static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, said: String) {
        let command = try Command(path, arguments)
        let said = command.readToEnd()
        return (command.wait(), said)
    }

    public func write(_ text: String) {
        guard input >= 0 else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if written < 0, Glibc.errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Ends the child's input: it reads end of file.
    public func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// Reads what the child prints until `text` has appeared; false if it ended first.
    public func read(until text: String) -> Bool {
        var seen: [UInt8] = []
        while !String(decoding: seen, as: UTF8.self).contains(text) {
            guard readSome(into: &seen) else { return false }
        }
        return true
    }

    /// Everything the child prints from now until it closes its output.
    public func readToEnd() -> String {
        var seen: [UInt8] = []
        while readSome(into: &seen) {}
        return String(decoding: seen, as: UTF8.self)
    }

    /// Appends what one read of the child's output gives; false at its end.
    private func readSome(into seen: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count < 0, Glibc.errno == EINTR { continue }
            guard count > 0 else { return false }
            seen += chunk[..<count]
            return true
        }
    }

    /// Waits for the child to end (once) and returns its status.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        closeInput()
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, Glibc.errno == EINTR {}
        let signal = raw & 0x7f
        let ended = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        status = ended
        return ended
    }

    public var isRunning: Bool { status == nil }

    deinit {
        wait()
        close(output)
    }

    /// A pipe, as a socket pair: created close-on-exec in one call (Glibc's module has no
    /// `pipe2`), so no child another thread spawns meanwhile inherits an end and holds it open.
    private static func channel(_ ends: inout [Int32]) -> Int32 {
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
    }

    private static func errno() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: Glibc.errno) ?? .EIO) }
}
