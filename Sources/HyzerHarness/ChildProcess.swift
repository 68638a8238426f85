import Foundation
import Subprocess
import Synchronization

#if canImport(System)
import System
#else
import SystemPackage
#endif

// Child processes for the benchmarks and the end-to-end tests, on swift-subprocess.
//
// Every test target links into one test process, and Swift concurrency's cooperative pool has
// one thread per core (two on the project's machines). A test that blocked a pool thread on a
// child process (`waitUntilExit()`, a blocking pipe read) would starve whatever else runs in
// the process: the in-process group servers of the sync tests would then miss their request
// deadlines. Nothing here blocks: swift-subprocess notices a child's exit on its own monitor
// thread (a pidfd in epoll on Linux, kqueue on macOS) and reads the pipes through non-blocking
// descriptors and the same kind of readiness thread, so awaiting a child, its output or its exit
// suspends the task and gives the pool thread back. Waiting with a timeout is a `Task.sleep`
// race, never a sleep on a thread.

/// How a child process ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// `exit(code)` or a return from `main`.
    case exited(Int32)
    /// Killed by a signal (SIGKILL, an unhandled SIGTERM, a crash).
    case signaled(Int32)

    init(_ status: TerminationStatus) {
        switch status {
        case .exited(let code): self = .exited(Int32(code))
        case .signaled(let signal): self = .signaled(Int32(signal))
        }
    }

    /// The shell's `$?`: the exit code, or 128 + the signal.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// Exited with code 0.
    public var isSuccess: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): "exited with \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}

/// A child process running in the background while a test goes on: a server, a kiosk, Xvfb.
/// `Binary.run` is simpler when a test only needs the result.
public final class ChildProcess: Sendable {
    /// Where the child's standard output and error go.
    public enum Output: Sendable {
        /// `/dev/null`.
        case discarded
        /// Kept in memory (up to `Binary.outputLimit` bytes each), returned by `waitForExit`.
        case collected
        /// Both appended to this file (created if needed), readable while the child runs.
        case file(URL)
    }

    /// What the child left behind.
    public struct Finished: Sendable {
        public var termination: Termination
        /// Empty unless the output was `.collected`.
        public var stdout: String
        public var stderr: String
    }

    public enum Failure: Error, CustomStringConvertible {
        case timedOut(pid_t, Duration)

        public var description: String {
            switch self {
            case .timedOut(let pid, let limit): "process \(pid) did not exit within \(limit)"
            }
        }
    }

    public let processIdentifier: pid_t
    /// Runs `Subprocess.run` to the child's end; its value is the child's outcome.
    private let outcome: Task<Finished, any Error>
    private let reaped: Reaped

    private init(processIdentifier: pid_t, outcome: Task<Finished, any Error>, reaped: Reaped) {
        self.processIdentifier = processIdentifier
        self.outcome = outcome
        self.reaped = reaped
    }

    /// Starts `executable` and returns once it has been spawned. A nil `environment` inherits
    /// this process's; a dictionary replaces it (as `Foundation.Process.environment` did).
    public static func start(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        output: Output = .discarded
    ) async throws -> ChildProcess {
        let (pids, pidSink) = AsyncThrowingStream<pid_t, any Error>.makeStream()
        let reaped = Reaped()
        let outcome = Task<Finished, any Error> {
            defer { reaped.set() }
            do {
                return try await Binary.launch(executable, arguments, environment: environment, output: output) {
                    pidSink.yield($0)
                    pidSink.finish()
                }
            } catch {
                pidSink.finish(throwing: error)  // a spawn failure reaches the caller of `start`
                throw error
            }
        }
        var iterator = pids.makeAsyncIterator()
        guard let pid = try await iterator.next() else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(executable.path) did not start"])
        }
        return ChildProcess(processIdentifier: pid, outcome: outcome, reaped: reaped)
    }

    /// False once the child has exited and been reaped.
    public var isRunning: Bool { !reaped.isSet }

    /// Sends `signal` if the child is still running; a no-op afterwards.
    public func send(_ signal: Int32) {
        let pid = processIdentifier
        reaped.unlessSet { _ = Foundation.kill(pid, signal) }
    }

    /// SIGTERM: a clean stop, as systemd asks for one.
    public func terminate() { send(SIGTERM) }

    /// SIGKILL: nothing to save, or a crash to simulate.
    public func kill() { send(SIGKILL) }

    /// Suspends (without holding a thread) until the child exits, or throws after `timeout`
    /// and leaves it running.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(120)) async throws -> Finished {
        let outcome = self.outcome
        return try await withThrowingTaskGroup(of: Finished?.self) { group in
            group.addTask { try await outcome.value }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let finished = try await group.next() ?? nil else {
                throw Failure.timedOut(processIdentifier, timeout)
            }
            return finished
        }
    }
}

/// Whether a child has been reaped: set by its outcome task, read by `ChildProcess`. Signals
/// go out under this lock and only before it is set, so a signal cannot reach a later process
/// that reused the pid (short of the instant between swift-subprocess reaping the child and
/// the task setting this, which swift-subprocess does not let us close).
private final class Reaped: Sendable {
    private let flag = Mutex(false)

    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
    func unlessSet(_ body: () -> Void) { flag.withLock { if !$0 { body() } } }
}
