import Foundation
import HyzerHarness
import HyzerServer
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
        let answer = try await offThePoolThread { () -> (status: String, held: Int) in
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
            let status = Self.statusLine(port: port, "GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
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

    /// `body` on a thread of its own, awaited.
    func offThePoolThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: body()) }.start() }
    }

    /// The status line of the answer to `request` on a new connection (10-s receive timeout).
    static func statusLine(port: Int, _ request: String) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return "socket failed" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "connect failed" }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return "send failed" }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return "no answer" }
        return String(decoding: buffer[0..<count], as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }
}
