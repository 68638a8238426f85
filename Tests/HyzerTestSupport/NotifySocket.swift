import Foundation
import HyzerSystem

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing where systemd's notify socket would.
public final class NotifySocket: @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private let start = Date()

    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard let address = UnixSocketAddress(path) else { throw POSIXError(.ENAMETOOLONG) }
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard fd >= 0, bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
    }

    public struct Datagram: Sendable {
        public var message: String
        /// Seconds since the socket was made.
        public var time: Double
    }

    /// The next datagram, or nil after `timeout` seconds.
    public func receive(timeout: Double) -> Datagram? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return Datagram(message: String(decoding: buffer[..<count], as: UTF8.self), time: Date().timeIntervalSince(start))
    }

    /// Every datagram that arrives within `seconds`.
    public func collect(for seconds: Double) -> [Datagram] {
        let end = Date().addingTimeInterval(seconds)
        var received: [Datagram] = []
        while case let left = end.timeIntervalSinceNow, left > 0, let datagram = receive(timeout: left) {
            received.append(datagram)
        }
        return received
    }

    public func close() {
        _ = Glibc.close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }
}
