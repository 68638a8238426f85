import Foundation
import HTTPTypes
import HyzerKit
import HyzerSyncProtocol
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import WSClient

/// The poke channel: a WebSocket (swift-websocket's client; URLSession's WebSocket task
/// is not available on Linux) that reconnects with backoff and reports connects,
/// disconnects and pokes. It carries no data: the engine pulls when poked.
///
/// A `Service`: `run()` connects and reconnects until the task is cancelled or a graceful
/// shutdown starts; either ends the open connection with a close handshake, so the
/// server is never left waiting on us. An attempt still waiting for the server to answer
/// its upgrade is left behind instead: the client's wait for that answer cannot be
/// cancelled, and a server that took the connection and never answers would otherwise
/// hold the kiosk's shutdown until systemd killed it.
public final class LiveSocket: Service, Sendable {
    public enum Event: Sendable {
        case connected
        case disconnected
        case poke(Poke)
    }

    private let link: ServerLink
    private let reconnect: Backoff
    private let clock: any HyzerClock
    private let logger: Logger
    private let onEvent: @Sendable (Event) -> Void
    /// Ends the open connection's handler; returning from the handler makes the client do
    /// the close handshake.
    private let connection = Mutex(Connection())

    private struct Connection {
        var stopped = false
        var close: AsyncStream<Void>.Continuation?
        /// The attempt under way got as far as the handler.
        var connected = false
        /// Ends the wait for the attempt under way (`attempt(_:)`).
        var abandon: AsyncStream<Void>.Continuation?
    }

    public init(
        link: ServerLink, reconnect: Backoff, clock: any HyzerClock = SystemClock(), logger: Logger,
        onEvent: @escaping @Sendable (Event) -> Void
    ) {
        self.link = link
        self.reconnect = reconnect
        self.clock = clock
        self.logger = logger
        self.onEvent = onEvent
    }

    var url: String {
        let base = link.serverURL
        let ws =
            base.hasPrefix("https://")
            ? "wss://" + base.dropFirst("https://".count)
            : base.hasPrefix("http://") ? "ws://" + base.dropFirst("http://".count) : base
        return ws + "/v1/live"
    }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await connectLoop()
            } onCancel: {
                self.stop()
            }
        } onGracefulShutdown: {
            self.stop()
        }
    }

    /// Ends the open connection and every later attempt; stops waiting for an attempt that
    /// has no answer to its upgrade yet.
    private func stop() {
        let (close, abandon) = connection.withLock { c in
            c.stopped = true
            defer { (c.close, c.abandon) = (nil, nil) }
            // A connection that is up ends with its close handshake, awaited as before.
            return (c.close, c.connected ? nil : c.abandon)
        }
        close?.finish()
        abandon?.finish()
    }

    /// Runs `connect` as a task of its own and waits for it to end, or for a stop that
    /// comes while it still waits for the upgrade's answer.
    private func attempt(_ connect: @escaping @Sendable () async -> Void) async {
        let (ended, end) = AsyncStream<Void>.makeStream()
        let stopped = connection.withLock { c -> Bool in
            if !c.stopped { c.abandon = end }
            return c.stopped
        }
        if stopped { return }
        Task {
            await connect()
            end.finish()
        }
        for await _ in ended {}
        connection.withLock { $0.abandon = nil }
    }

    private var isStopped: Bool { connection.withLock { $0.stopped } }

    private func seconds(_ d: Duration) -> Double { Double(d.nanoseconds) / 1e9 }

    private func connectLoop() async throws {
        var schedule = ReconnectScheduler(backoff: reconnect)
        var rng = SystemRandomNumberGenerator()
        var config = WebSocketClientConfiguration()
        config.additionalHeaders[HTTPField.Name("Authorization")!] = "Bearer \(link.deviceToken)"
        config.additionalHeaders[HTTPField.Name(SyncProtocol.deviceHeader)!] = link.deviceID
        config.autoPing = .enabled(timePeriod: .seconds(20))
        config.closeTimeout = .seconds(2)
        let trust = ServerTrust.socket(caFile: link.caFile, serverURL: link.serverURL)
        config.sniHostname = trust.serverName
        let decoder = SyncCoding.decoder()
        while !Task.isCancelled && !isStopped {
            schedule.connecting(now: seconds(clock.uptime))
            connection.withLock { $0.connected = false }
            let url = url
            await attempt { [self, config, trust, decoder, logger] in
                do {
                    try await WebSocketClient.connect(
                        url: url, configuration: config, tlsConfiguration: trust.tls,
                        logger: logger
                    ) { inbound, _, _ in
                        let (done, finished) = AsyncStream<Void>.makeStream()
                        let stopped = self.connection.withLock { c -> Bool in
                            c.close = finished
                            c.connected = !c.stopped
                            return c.stopped
                        }
                        if stopped { return }
                        self.onEvent(.connected)
                        // The handler returns when the server closes (the reader ends) or on
                        // stop (the close continuation finishes), whichever comes first. The
                        // reader is not awaited: returning starts the close handshake, which
                        // is what ends its iteration.
                        let reader = Task {
                            do {
                                for try await message in inbound.messages(maxSize: 4096) {
                                    guard case .text(let text) = message,
                                        let poke = try? decoder.decode(Poke.self, from: Data(text.utf8))
                                    else { continue }
                                    self.onEvent(.poke(poke))
                                }
                            } catch {}
                            finished.finish()
                        }
                        for await _ in done {}
                        reader.cancel()
                    }
                } catch {
                    logger.debug("poke socket: \(error)")
                }
            }
            if connection.withLock({ $0.connected }) { onEvent(.disconnected) }
            if Task.isCancelled || isStopped { break }
            let delay = schedule.ended(now: seconds(clock.uptime), using: &rng)
            do { try await clock.sleep(for: .nanoseconds(Int64(delay * 1e9))) } catch { break }
        }
    }
}
