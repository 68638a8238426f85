import Foundation

/// Runs blocking work on a thread of its own.
///
/// Every test target links into one test process, and Swift concurrency's cooperative
/// pool has one thread per core (two on the project's machines). A test that blocks a
/// pool thread on a child process or a sleep starves whatever else runs in the process:
/// the in-process group servers of the sync tests then miss their request deadlines.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Waits for a child process without blocking a pool thread.
public func waitForExit(_ process: Process, timeout: Double = 120) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
        guard Date() < deadline else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "process did not exit"]) }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
}

/// The project's executables, built next to the test bundle.
public enum Binary {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

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

    /// Runs any executable to completion, off the cooperative pool.
    public static func run(executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        try await offPool {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // Read both pipes while the child runs so neither can fill up and stall it.
            let group = DispatchGroup()
            nonisolated(unsafe) var stderr = Data()
            group.enter()
            DispatchQueue.global().async { stderr = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
        }
    }
}
