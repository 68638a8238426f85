import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An AF_UNIX socket's address as systemd writes one in `$NOTIFY_SOCKET`: a path, or an
/// abstract name with `@` first (its first byte is NUL on the wire).
public struct UnixSocketAddress {
    private var storage = sockaddr_un()
    private let length: socklen_t

    /// Nil when the name does not fit `sun_path`.
    public init?(_ name: String) {
        var path = Array(name.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        guard path.count < MemoryLayout.size(ofValue: storage.sun_path) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { bytes in
            for (index, byte) in path.enumerated() { bytes[index] = byte }
        }
        // An abstract name's length is exact (no terminating NUL counts); a path's has one.
        length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (path.first == 0 ? 0 : 1))
    }

    /// `body` with the address as the socket calls take it (`bind`, `sendto`).
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
