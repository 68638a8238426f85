import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// A connection's first request passes NIO's upgrade handler, which takes any request with an
/// `Upgrade` header for an upgrade. One it cannot make (another protocol, such as the
/// `Upgrade: h2c` of `curl --http2`, or a WebSocket handshake without exactly one key and
/// version 13) loses its head there, and the connection closed with no answer at all (found
/// by schemathesis, `make fuzz-api`). The gate stands in front of that handler and takes the
/// `Upgrade` header off every first request that is not a complete handshake, so the request
/// is served as plain HTTP: `/health` answers, `/v1/live` says what the handshake lacks
/// (`LiveController.notAHandshake`). Complete is stricter than NIO, which upgrades without
/// `Connection: Upgrade`: RFC 6455 §4.2.1 asks for it, as docs/openapi.yaml does.
///
/// It does the same for a handshake with no `Authorization` header: no socket opens without
/// a token, and as plain HTTP the route answers what a missing token gets everywhere else,
/// a 401 in JSON, instead of hummingbird-websocket's empty 400 for any refused
/// upgrade. A handshake with a token goes through unchanged: 101, or that empty 400 when the
/// token or the device is refused. Only the first request can upgrade, so the gate then leaves.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers.contains(name: "upgrade"),
            !Self.isWebSocketHandshake(head.headers) || !head.headers.contains(name: "authorization")
        {
            head.headers.remove(name: "upgrade")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// A handshake NIO's WebSocket upgrader completes and RFC 6455 §4.2.1 asks for:
    /// `websocket` among the protocols asked for, `upgrade` among the Connection options,
    /// one `Sec-WebSocket-Key` that is 16 bytes in base64, and one `Sec-WebSocket-Version`, 13.
    static func isWebSocketHandshake(_ headers: HTTPHeaders) -> Bool {
        let keys = headers[canonicalForm: "sec-websocket-key"]
        return headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
            && headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
            && keys.count == 1 && isKey(keys[0])
            && headers[canonicalForm: "sec-websocket-version"].map(String.init) == ["13"]
    }

    /// 16 bytes in base64, written as RFC 4648 writes them: 22 letters, the last of which
    /// leaves the padding bits zero, then `==` (NIO takes any text).
    static func isKey(_ key: Substring) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        return bytes[..<21].allSatisfy(alphabet.contains) && "AQgw".utf8.contains(bytes[21])
    }
}

/// hummingbird-websocket's HTTP/1 channel with the `UpgradeGate` in front of its upgrade
/// handler.
struct GatedWebSocketUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let upgrader = try operations.handler(
                type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try operations.addHandler(UpgradeGate(), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `.http1WebSocketUpgrade(webSocketRouter:configuration:)` with the `UpgradeGate`.
    static func gatedHTTP1WebSocketUpgrade(
        webSocketRouter: Router<ServerRequestContext>, configuration: HTTP1WebSocketUpgradeChannel.Configuration
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            GatedWebSocketUpgradeChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: configuration))
        }
    }
}
