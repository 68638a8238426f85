import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket bound to a port of loopback's the kernel chose, and that port; nil when it
/// cannot be bound.
public func boundLoopbackSocket() -> (fd: Int32, port: Int)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    guard bound == 0 else {
        close(fd)
        return nil
    }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return (fd, Int(UInt16(bigEndian: addr.sin_port)))
}

/// A free loopback port (bound then released): the kernel's pick, so it is not one a
/// server of another test holds now (a random number in a range may be).
public func freePort() throws -> Int {
    guard let (fd, port) = boundLoopbackSocket() else { throw CocoaError(.fileWriteUnknown) }
    close(fd)
    return port
}
