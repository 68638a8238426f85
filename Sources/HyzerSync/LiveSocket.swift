import Foundation
import HyzerSyncProtocol
import Logging
import HTTPTypes
import NIOCore
import WSClient

/// The poke channel: a WebSocket (swift-websocket's client; URLSession's WebSocket task
/// is not available on Linux) that reconnects with backoff and reports connects,
/// disconnects and pokes. It carries no data: the engine pulls when poked.
final class LiveSocket: Sendable {
    enum Event: Sendable {
        case connected
        case disconnected
        case poke(Poke)
    }

    private let link: ServerLink
    private let reconnect: Backoff
    private let logger: Logger
    private let onEvent: @Sendable (Event) -> Void
    private let task = Locked<Task<Void, Never>?>(nil)
    /// Ends the open connection's handler on `stop()`; returning from the handler makes
    /// the client do the close handshake, so the server is never left waiting on us.
    private let stopSignal = Locked<AsyncStream<Void>.Continuation?>(nil)

    init(link: ServerLink, reconnect: Backoff, logger: Logger, onEvent: @escaping @Sendable (Event) -> Void) {
        self.link = link
        self.reconnect = reconnect
        self.logger = logger
        self.onEvent = onEvent
    }

    var url: String {
        let base = link.serverURL
        let ws = base.hasPrefix("https://") ? "wss://" + base.dropFirst("https://".count)
            : base.hasPrefix("http://") ? "ws://" + base.dropFirst("http://".count) : base
        return ws + "/v1/live"
    }

    func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { await self.run() }
        }
    }

    func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
        stopSignal.withLock { c in
            c?.finish()
            c = nil
        }
    }

    private func run() async {
        var attempt = 0
        var rng = SystemRandomNumberGenerator()
        var config = WebSocketClientConfiguration()
        config.additionalHeaders[HTTPField.Name("Authorization")!] = "Bearer \(link.deviceToken)"
        config.additionalHeaders[HTTPField.Name(SyncProtocol.deviceHeader)!] = link.deviceID
        config.autoPing = .enabled(timePeriod: .seconds(20))
        config.closeTimeout = .seconds(2)
        let decoder = SyncCoding.decoder()
        while !Task.isCancelled {
            let started = ContinuousClock.now
            let connected = Locked(false)
            do {
                try await WebSocketClient.connect(url: url, configuration: config, logger: logger) { inbound, _, _ in
                    connected.withLock { $0 = true }
                    let (done, finished) = AsyncStream<Void>.makeStream()
                    let stopped = self.stopSignal.withLock { c -> Bool in
                        c = finished
                        return self.task.withLock { $0 == nil }
                    }
                    if stopped || Task.isCancelled { return }
                    self.onEvent(.connected)
                    let reader = Task {
                        do {
                            for try await message in inbound.messages(maxSize: 4096) {
                                guard case .text(let text) = message,
                                      let poke = try? decoder.decode(Poke.self, from: Data(text.utf8)) else { continue }
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
            if connected.withLock({ $0 }) { onEvent(.disconnected) }
            if Task.isCancelled { break }
            // A connection that held for a while was fine: start the backoff over.
            if ContinuousClock.now - started > .seconds(30) { attempt = 0 }
            attempt += 1
            let delay = reconnect.delay(attempt: attempt, using: &rng)
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
    }
}
