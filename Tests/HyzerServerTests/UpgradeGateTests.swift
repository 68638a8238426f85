import Foundation
import HyzerHarness
import HyzerTestSupport
import NIOHTTP1
import Testing

@testable import HyzerServer

#if canImport(Glibc)
import Glibc
#endif

/// A request with an `Upgrade` header is answered, whatever else it lacks (`UpgradeGate`):
/// NIO's upgrade handler dropped the connection without a word for one it could not upgrade
/// (`curl --http2`'s `Upgrade: h2c`, a WebSocket handshake of another version), which
/// schemathesis found on /v1/live (`make fuzz-api`). Raw requests over a real socket, since
/// an HTTP client would not send them as written.
@Suite struct UpgradeGateTests {
    @Test func aRequestForAnUpgradeNobodySpeaksIsServedAsHTTP() async throws {
        let (server, dir) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: dir) }
        let h2c = await Self.exchange(
            port: server.port,
            "GET /health HTTP/1.1\r\nHost: club\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n")
        #expect(h2c.hasPrefix("HTTP/1.1 200"), "curl --http2 got \(h2c.debugDescription)")
        let made = await Self.exchange(port: server.port, "GET /health HTTP/1.1\r\nHost: club\r\nUpgrade: F\r\n\r\n")
        #expect(made.hasPrefix("HTTP/1.1 200"), "\(made.debugDescription)")
        await server.stop()
    }

    @Test func thePokeSocketsHandshakeIsAlwaysAnswered() async throws {
        let (server, dir) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (group, _) = try await server.storage.createGroup(name: "Gate")
        let token = try await server.storage.enroll(groupID: group.id, deviceID: "kiosk-1", name: "Kiosk")
        func handshake(_ changes: [String: String?]) async -> String {
            var headers: [(String, String?)] = [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("X-Hyzer-Device", "kiosk-1"),
                ("Authorization", "Bearer \(token)"),
            ]
            for (name, value) in changes {
                headers.removeAll { $0.0 == name }
                headers.append((name, value))
            }
            let lines = headers.compactMap { name, value in value.map { "\(name): \($0)\r\n" } }.joined()
            return await Self.exchange(port: server.port, "GET /v1/live HTTP/1.1\r\nHost: club\r\n\(lines)\r\n")
        }
        let good = await handshake([:])
        #expect(good.hasPrefix("HTTP/1.1 101"), "\(good.debugDescription)")
        // Another version: 426 naming 13 (RFC 6455 §4.4).
        for version in ["12", "F"] {
            let answer = await handshake(["Sec-WebSocket-Version": version])
            #expect(answer.hasPrefix("HTTP/1.1 426"), "version \(version): \(answer.debugDescription)")
            #expect(answer.lowercased().contains("sec-websocket-version: 13"), "\(answer.debugDescription)")
        }
        // A handshake missing a part: 400 saying what it takes (§4.2.1); NIO alone upgraded
        // without Connection: Upgrade, and dropped the others without a word.
        for (what, changes) in [
            ("no key", ["Sec-WebSocket-Key": nil]),
            ("two keys", ["Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==, dGhlIHNhbXBsZSBub25jZQ=="]),
            ("no version", ["Sec-WebSocket-Version": nil]), ("another protocol", ["Upgrade": "F"]),
            ("a key that is not 16 bytes", ["Sec-WebSocket-Key": "x"]),
            ("no Upgrade", ["Upgrade": nil]), ("no Connection", ["Connection": nil]),
        ] as [(String, [String: String?])] {
            let answer = await handshake(changes)
            #expect(
                answer.hasPrefix("HTTP/1.1 400") && answer.contains("incomplete WebSocket handshake"),
                "\(what): \(answer.debugDescription)")
        }
        // No handshake at all: 426.
        let plain = await handshake([
            "Upgrade": nil, "Connection": nil, "Sec-WebSocket-Key": nil, "Sec-WebSocket-Version": nil,
        ])
        #expect(plain.hasPrefix("HTTP/1.1 426"), "\(plain.debugDescription)")
        // No token: the 401 every route gives, not the upgrader's empty 400.
        let anonymous = await handshake(["Authorization": nil])
        #expect(anonymous.hasPrefix("HTTP/1.1 401") && anonymous.contains("\"error\""), "\(anonymous.debugDescription)")
        // A token the server refuses still reaches the upgrader, which refuses with its empty 400.
        let refused = await handshake(["Authorization": "Bearer hzd_unknown"])
        #expect(refused.hasPrefix("HTTP/1.1 400"), "\(refused.debugDescription)")
        await server.stop()
    }

    /// What the gate lets through to NIO's upgrader, header by header (the token aside).
    @Test func onlyAHandshakeNIOCanCompleteIsLeftAlone() {
        let handshake: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version": "13",
        ]
        #expect(UpgradeGate.isWebSocketHandshake(handshake))
        var other = handshake
        other.replaceOrAdd(name: "Upgrade", value: "h2c, WebSocket")
        #expect(UpgradeGate.isWebSocketHandshake(other), "websocket among the protocols, in any case")
        for (name, value) in [
            ("Upgrade", "h2c"), ("Connection", "keep-alive"), ("Sec-WebSocket-Version", "8"),
            ("Sec-WebSocket-Version", "13, 8"), ("Sec-WebSocket-Key", "a, b"), ("Sec-WebSocket-Key", "x"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZR=="), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ="),
        ] {
            var headers = handshake
            headers.replaceOrAdd(name: name, value: value)
            #expect(!UpgradeGate.isWebSocketHandshake(headers), "\(name): \(value)")
        }
        var keyless = handshake
        keyless.remove(name: "Sec-WebSocket-Key")
        #expect(!UpgradeGate.isWebSocketHandshake(keyless))
    }

    static func server() async throws -> (RunningServer, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-gate-\(UUID().uuidString)")
        return (try await RunningServer.start(ServerConfiguration(dataDirectory: dir, host: "127.0.0.1", port: 0)), dir)
    }

    /// Sends `request` on a fresh connection and returns what came back up to the end of the
    /// answer's head ("" when the server closed without a word), on a thread of its own.
    static func exchange(port: Int, _ request: String) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: rawHTTPExchange(port: port, request)) }.start()
        }
    }
}
