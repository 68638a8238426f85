import Foundation
import HyzerServer
import Logging
import ServiceLifecycle

/// A group server running in this process, for tests and benchmarks: started on a port
/// (0 = any free one), stopped gracefully as SIGTERM would. A harness, not part of the
/// server: the production executable runs `buildApplication` in its own ServiceGroup.
public final class RunningServer: Sendable {
    public let port: Int
    public let baseURL: String
    public let storage: any ServerStorage
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(
        port: Int, host: String, tls: Bool, storage: any ServerStorage, group: ServiceGroup, task: Task<Void, any Error>
    ) {
        self.port = port
        self.storage = storage
        self.baseURL = "\(tls ? "https" : "http")://\(host):\(port)"
        self.group = group
        self.task = task
    }

    public static func start(_ config: ServerConfiguration) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var appLogger = Logger(label: "hyzer.server")
        appLogger.logLevel = config.logLevel
        let storage = try await openServerStorage(
            data: config.dataDirectory, database: config.database, clock: config.clock, logger: appLogger)
        let app = buildApplication(config, storage: storage, logger: appLogger) { port in
            continuation.yield(port)
            continuation.finish()
        }
        var logger = Logger(label: "hyzer.server.group")
        logger.logLevel = .warning
        var groupConfig = ServiceGroupConfiguration(services: [app], logger: logger)
        // A peer that never closes its connection must not hold a stop up for long.
        groupConfig.maximumGracefulShutdownDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfig)
        // If the server cannot start (port taken), the stream ends without a port. On threads
        // of its own, so the process's other work cannot keep it from answering.
        let task = Task(executorPreference: ServerExecutor.shared) {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            task.cancel()
            throw StorageError.invalid("the server did not start")
        }
        let host = config.host == "0.0.0.0" ? "127.0.0.1" : config.host
        return RunningServer(port: port, host: host, tls: config.tls != nil, storage: storage, group: group, task: task)
    }

    /// Graceful: in-flight requests finish, live sockets close, then the storage closes.
    public func stop(within seconds: Double = 5) async {
        await group.triggerGracefulShutdown()
        // Waits for the shutdown, but not forever: a peer that keeps a connection open
        // (seen now and then with a poke socket that both ends have already let go of)
        // would otherwise hold the caller until its keep-alive gives up. Whichever of the
        // two reports first decides; a task group would instead wait for both, and
        // awaiting the server task's value cannot be cancelled.
        let (outcomes, report) = AsyncStream<Bool>.makeStream()
        let task = self.task
        let waiter = Task {
            _ = try? await task.value
            report.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            report.yield(false)
        }
        var first = outcomes.makeAsyncIterator()
        let finished = await first.next() ?? false
        report.finish()
        timer.cancel()
        if !finished {
            task.cancel()
            waiter.cancel()
        }
        try? await storage.close()
    }
}
