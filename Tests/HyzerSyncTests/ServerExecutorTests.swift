import Foundation
import HyzerHarness
import HyzerServer
import HyzerTestSupport
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An in-process group server (`RunningServer`, as the tests and benchmarks run it) answers
/// while every thread of Swift's cooperative pool is held by synchronous work, as when two
/// long synchronous tests run at once beside it: its tasks prefer `ServerExecutor`'s threads.
///
/// Negative control (run when written): with the server's task on the pool as before, the
/// server did not answer within the 10 s the pool was held ("no answer").
@Suite struct ServerExecutorTests {
    @Test func anInProcessServerAnswersWhileThePoolIsHeld() async throws {
        let dir = temporaryDirectory("executor")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try await RunningServer.start(
            ServerConfiguration(dataDirectory: dir, host: "127.0.0.1", port: 0, logLevel: .warning))
        let port = server.port
        let answer = try await offThePool { () -> (status: String, held: Int) in
            // Every pool thread held until the answer is in (or the 10-s receive timeout): a
            // task blocked in a wait holds its thread, as a long synchronous test does.
            let width = ProcessInfo.processInfo.activeProcessorCount
            let held = Held()
            let release = DispatchSemaphore(value: 0)
            for _ in 0..<width {
                Task.detached {
                    held.count.withLock { $0 += 1 }
                    release.wait()
                    held.count.withLock { $0 -= 1 }
                }
            }
            // Once all of them hold a thread, the pool has none left.
            while held.count.withLock({ $0 }) < width { usleep(1_000) }
            let answer = rawHTTPExchange(port: port, "GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let status = answer.isEmpty ? "no answer" : answer.components(separatedBy: "\r\n")[0]
            let stillHeld = held.count.withLock { $0 }
            for _ in 0..<width { release.signal() }
            return (status, stillHeld)
        }
        await server.stop()
        #expect(answer.status.hasPrefix("HTTP/1.1 200"), "\(answer.status)")
        #expect(answer.held > 0, "the answer came while the pool was held")
    }

    /// Tasks holding a pool thread now.
    final class Held: Sendable { let count = Mutex(0) }
}
