import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How long `rawHTTPExchange` waits for an answer: a hang detector, not a deadline.
private let hangSeconds = 60

/// Sends `request` as raw bytes on a new loopback connection to `port` and returns what came
/// back up to the end of the answer's head, with the start of its body when it is already
/// there ("" when the server closed without a word; a sentence saying so when nothing came
/// within 60 s). Blocking: call it from a thread of its own. The 60 s only detects a hang:
/// under `make test-under-load` (CPU hogs on every core beside the whole suite) a fresh
/// server's first handshake once came back as "" from the 10 s this waited before, which
/// read as a silent close whether or not it was one; a timeout now says so.
/// For requests no HTTP client would send as they are (an Upgrade that is no WebSocket
/// handshake) and for asking while the pool is held.
public func rawHTTPExchange(port: Int, _ request: String) -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return "socket failed" }
    defer { close(fd) }
    var timeout = timeval(tv_sec: hangSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return "connect failed" }
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return "send failed" }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            return "no answer within \(hangSeconds) s (received \(String(decoding: received, as: UTF8.self).debugDescription))"
        }
        guard count > 0 else { break }
        received += buffer[0..<count]
    }
    // The body of a JSON error, when it is already there, for the messages.
    if received.count < 4096 {
        var more = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &more, socklen_t(MemoryLayout<timeval>.size))
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 { received += buffer[0..<count] }
    }
    return String(decoding: received, as: UTF8.self)
}
