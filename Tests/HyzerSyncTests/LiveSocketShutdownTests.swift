import Foundation
import HyzerKit
import HyzerSync
import HyzerTestSupport
import Logging
import Synchronization
import Testing

/// The poke socket stops when asked even while a server that took the connection never
/// answers its upgrade (a hung server, a captive portal, a proxy that holds requests):
/// the kiosk's graceful shutdown waits for every service, and systemd's stop timeout would
/// otherwise kill it.
@Suite struct LiveSocketShutdownTests {
    @Test func aConnectWithNoAnswerEndsOnCancel() async throws {
        let (listener, port) = try #require(boundLoopbackSocket())
        defer { close(listener) }
        #expect(listen(listener, 8) == 0)
        let link = ServerLink(
            serverURL: "http://127.0.0.1:\(port)", groupID: "g", groupName: "G", deviceID: "d", deviceName: "A",
            deviceToken: "t", enrolledAt: Date())
        let socket = LiveSocket(
            link: link, reconnect: Backoff(base: 1, cap: 2), logger: Logger(label: "test"), onEvent: { _ in })
        let ended = Atomic<Bool>(false)
        let run = Task {
            try? await socket.run()
            ended.store(true, ordering: .sequentiallyConsistent)
        }
        // The upgrade request reaches a server that reads it and never answers.
        let (accepted, request) = try await offThePool { () -> (Int32, String) in
            let fd = accept(listener, nil, nil)
            var bytes = [UInt8](repeating: 0, count: 4096)
            let read = fd >= 0 ? recv(fd, &bytes, bytes.count, 0) : -1
            return (fd, String(decoding: bytes.prefix(max(read, 0)), as: UTF8.self))
        }
        defer { close(accepted) }
        #expect(request.hasPrefix("GET /v1/live"), "\(request)")
        run.cancel()
        // A liveness bound, not a timing: the stop needs no answer from the server at all.
        for _ in 0..<150 where !ended.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let stopped = ended.load(ordering: .sequentiallyConsistent)
        #expect(stopped, "the poke socket still waits for the upgrade's answer 15 s after its cancel")
    }
}
