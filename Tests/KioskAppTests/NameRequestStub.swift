import Foundation
import HyzerSyncProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The group server's half of names typed on a phone (issue 32 item 6), exactly as the
/// contract in HyzerSyncProtocol/NameRequests.swift states it, served over real HTTP on
/// loopback by a thread and a few sockets. hyzer-server gains the routes separately; until
/// then the kiosk's shell (`SyncClient`'s calls, `ShareService`'s polling) is checked
/// against the contract itself: methods, paths, the device's token and header, the JSON,
/// and 201 / 200 / 204 / 404 / 410. The end-to-end test against the real server takes its
/// place once both halves exist.
///
/// With `failingSync` it is also a group server whose sync fails: push and pull answer 503
/// (`KioskClockTests` drives a kiosk's retries against it).
///
/// One request per connection (`Connection: close`), each on a thread of its own.
final class NameRequestStub: Sendable {
    struct Request: Sendable, Equatable {
        var method: String
        var path: String
        var authorization: String?
        var device: String?
        var body: String
    }

    struct Code: Sendable {
        var label: String
        var name: String?
        var expired = false
    }

    /// A test waiting for requests (`requests(_:where:)`).
    private struct Waiter: Sendable {
        var id: UUID
        var count: Int
        var matching: @Sendable (Request) -> Bool
        var continuation: CheckedContinuation<[Request], Never>
    }

    private struct State: Sendable {
        var codes: [String: Code] = [:]
        var order: [String] = []
        var requests: [Request] = []
        var waiters: [Waiter] = []
    }

    let token: String
    /// The `expiresIn` every code is given.
    let expiresIn: Int
    /// Push and pull answer 503.
    let failingSync: Bool
    let port: Int
    private let listener: Int32
    private let state = Mutex(State())
    /// Stopped once (a test's `defer` may stop it again).
    private let stopped = Mutex(false)

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(token: String, expiresIn: Int = 300, failingSync: Bool = false) throws {
        self.token = token
        self.expiresIn = expiresIn
        self.failingSync = failingSync
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        var length = size
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, size) == 0 && listen(fd, 32) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    /// Stops accepting: the next request finds nothing listening (offline).
    func stop() {
        let first = stopped.withLock { was -> Bool in
            let first = !was
            was = true
            return first
        }
        guard first else { return }
        // Wakes the accept loop, which closes the socket itself: closed here, its number
        // could be reused by the time the loop calls accept again.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Every request so far, in order.
    var requests: [Request] { state.withLock { $0.requests } }

    /// The first `count` requests `matching` takes, once they have arrived (at once when they
    /// have): a test waits for a client's next request without sleeping. Cancelled, it
    /// returns those there are.
    func requests(_ count: Int, where matching: @escaping @Sendable (Request) -> Bool) async -> [Request] {
        let id = UUID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Request], Never>) in
                let ready: [Request]? = state.withLock { state in
                    let matched = state.requests.filter(matching)
                    if matched.count >= count || Task.isCancelled { return Array(matched.prefix(count)) }
                    state.waiters.append(Waiter(id: id, count: count, matching: matching, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> (Waiter, [Request])? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.waiters.remove(at: index)
                return (waiter, state.requests.filter(waiter.matching))
            }
            if let (waiter, matched) = cancelled { waiter.continuation.resume(returning: matched) }
        }
    }

    /// The codes made so far, oldest first.
    var codes: [String] { state.withLock { $0.order } }

    func label(of code: String) -> String? { state.withLock { $0.codes[code]?.label } }

    /// The phone sends `name` for `code`.
    func answer(_ code: String, with name: String) { state.withLock { $0.codes[code]?.name = name } }

    /// `code`'s minutes are over: its answer is 410 from now on.
    func expire(_ code: String) { state.withLock { $0.codes[code]?.expired = true } }

    /// The server forgets `code` (a restart without it): its answer is 404.
    func forget(_ code: String) { state.withLock { _ = $0.codes.removeValue(forKey: code) } }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR, !stopped.withLock({ $0 }) { continue }
                close(listener)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = read(connection) else { return }
        let arrived = state.withLock { state -> [(Waiter, [Request])] in
            state.requests.append(request)
            var arrived: [(Waiter, [Request])] = []
            let requests = state.requests
            state.waiters.removeAll { waiter in
                let matched = requests.filter(waiter.matching)
                guard matched.count >= waiter.count else { return false }
                arrived.append((waiter, Array(matched.prefix(waiter.count))))
                return true
            }
            return arrived
        }
        for (waiter, matched) in arrived { waiter.continuation.resume(returning: matched) }
        let (status, body) = answer(request)
        var head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\nConnection: close\r\n"
        // A 204 has no body and says no length (RFC 9110).
        if status != 204 { head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        let bytes = Array((head + "\r\n" + (status == 204 ? "" : body)).utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    static let reasons = [
        200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
        410: "Gone", 503: "Service Unavailable",
    ]

    private func answer(_ request: Request) -> (Int, String) {
        func error(_ status: Int, _ message: String) -> (Int, String) {
            (status, Self.json(ErrorResponse(error: .init(message: message))))
        }
        guard request.authorization == "Bearer \(token)" else { return error(401, "unknown token") }
        if failingSync, request.path == "/v1/push" || request.path.hasPrefix("/v1/pull?") {
            return error(503, "the group's storage is unavailable")
        }
        let parts = request.path.split(separator: "/").map(String.init)
        switch (request.method, parts.count) {
        case ("POST", 2) where parts == ["v1", "name-requests"]:
            guard let creation = try? JSONDecoder().decode(NameRequestCreation.self, from: Data(request.body.utf8)) else {
                return error(400, "the body must be {\"label\": …}")
            }
            let code = state.withLock { state in
                let code = "K7MP2QX" + String(Array("BCDFGHJKLMNPQRSTVWXZ")[state.order.count % 20])
                state.codes[code] = Code(label: creation.label)
                state.order.append(code)
                return code
            }
            return (201, Self.json(NameRequest(code: code, path: "/n/\(code)", expiresIn: expiresIn)))
        case ("GET", 4) where parts[0] == "v1" && parts[1] == "name-requests" && parts[3] == "answer":
            guard let code = state.withLock({ $0.codes[parts[2]] }) else { return error(404, "no such name request") }
            if let name = code.name { return (200, Self.json(NameAnswer(name: name))) }
            if code.expired { return error(410, "this name request expired") }
            return (204, "")
        default:
            return error(404, "no route \(request.method) \(request.path)")
        }
    }

    static func json(_ value: some Encodable) -> String {
        String(decoding: (try? SyncCoding.encoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    /// One request: its line, the headers that matter, and the body by its length.
    private func read(_ connection: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var expected = Int.max
        while data.count < expected {
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            data += buffer[0..<n]
            if headEnd == nil, let end = Self.find(separator, in: data) {
                headEnd = end
                let head = String(decoding: data[0..<end], as: UTF8.self)
                let length = Self.header("content-length", in: head).flatMap(Int.init) ?? 0
                expected = end + separator.count + length
            }
        }
        guard let end = headEnd else { return nil }
        let head = String(decoding: data[0..<end], as: UTF8.self)
        let line = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        return Request(
            method: words[0], path: words[1], authorization: Self.header("authorization", in: head),
            device: Self.header(SyncProtocol.deviceHeader.lowercased(), in: head),
            body: String(decoding: data[(end + separator.count)...], as: UTF8.self))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    private static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == name { return pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}
