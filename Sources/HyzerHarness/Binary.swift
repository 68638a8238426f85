import Foundation
import Subprocess
import Synchronization

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The project's executables, built next to the running program (the test bundle, or
/// hyzer-bench).
public enum Binary {
    /// What a finished child wrote and how it ended.
    public struct Result: Sendable {
        /// The shell's `$?` (128 + signal when killed).
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var termination: Termination
    }

    /// The most output kept per stream; more makes the run throw instead of eating memory.
    public static let outputLimit = 4 * 1024 * 1024

    public static func url(_ name: String) throws -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build the \(name) product first (swift build)"])
    }

    /// Runs a project executable to completion, off the cooperative pool.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        try await run(executable: url(name), arguments, environment: environment)
    }

    /// Runs any executable to completion, off the cooperative pool. A nil `environment`
    /// inherits this process's; a dictionary replaces it.
    public static func run(executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        let finished = try await launch(executable, arguments, environment: environment, output: .collected) { _ in }
        return Result(
            status: finished.termination.status, stdout: finished.stdout, stderr: finished.stderr,
            termination: finished.termination)
    }

    /// Starts a project executable in the background.
    public static func start(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, output: ChildProcess.Output = .discarded
    ) async throws -> ChildProcess {
        try await ChildProcess.start(url(name), arguments, environment: environment, output: output)
    }

    /// Spawns, calls `started` with the pid, and returns when the child has exited and its
    /// output is read.
    static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, output: ChildProcess.Output,
        started: @escaping @Sendable (pid_t) -> Void
    ) async throws -> ChildProcess.Finished {
        let configuration = Configuration(
            executable: .path(FilePath(executable.path)),
            arguments: Arguments(arguments),
            environment: environment.map { env in
                .custom(Dictionary(uniqueKeysWithValues: env.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
            } ?? .inherit
        )
        switch output {
        case .discarded:
            let result = try await Subprocess.run(configuration, input: .none, output: .discarded, error: .discarded) {
                started($0.processIdentifier.value)
            }
            return .init(termination: Termination(result.terminationStatus), stdout: "", stderr: "")
        case .collected:
            let result = try await Subprocess.run(
                configuration, input: .none, output: .string(limit: outputLimit), error: .string(limit: outputLimit)
            ) {
                started($0.processIdentifier.value)
            }
            return .init(
                termination: Termination(result.terminationStatus), stdout: result.standardOutput,
                stderr: result.standardError)
        case .file(let url):
            let descriptor = try FileDescriptor.open(
                FilePath(url.path), .writeOnly, options: [.create, .append],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
            let result = try await Subprocess.run(
                configuration, input: .none, output: .fileDescriptor(descriptor, closeAfterSpawningProcess: true),
                error: .combinedWithOutput
            ) {
                started($0.processIdentifier.value)
            }
            return .init(termination: Termination(result.terminationStatus), stdout: "", stderr: "")
        }
    }
}
