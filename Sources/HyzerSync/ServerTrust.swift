import Foundation
import NIOCore
import NIOSSL

/// Which servers a device trusts over https: the system's CAs, or, for a group server
/// with a certificate from a private CA (a club's own, made with openssl), only that CA,
/// from the PEM file the installer gave with `--ca` (kept in the link, `ServerLink.caFile`,
/// so every later sync, the kiosk and the poke socket use it without being told again).
/// Only that CA: a device that was told which CA its server uses should not also accept a
/// certificate some public CA issued for the same name.
public enum ServerTrust {
    /// The TLS configuration for requests and the poke socket; nil (the defaults, the
    /// system's CAs) without a CA file. The file is read when a connection is made.
    public static func configuration(caFile: String?) -> TLSConfiguration? {
        guard let caFile else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .file(caFile)
        configuration.shutdownTimeout = shutdownTimeout
        return configuration
    }

    /// How long a closing connection waits for the server's close_notify. NIOSSL's 5 s
    /// default held every stop of the engine (its poke socket) for 5 s against this
    /// server; nothing is left to read by then, so waiting longer buys nothing.
    static let shutdownTimeout = TimeAmount.milliseconds(500)

    /// The poke socket's TLS. swift-websocket's client sends the URL's host as the TLS
    /// server name (SNI), which TLS does not allow for an address: NIOSSL refuses before it
    /// connects, and a LAN server is usually reached by address (https://192.168.1.10:8630).
    /// For such a server with a private CA the socket sends a placeholder name and checks
    /// that the certificate chains to that CA, not the name in it: the CA is the group's
    /// own, its certificates are its servers'. (Requests check both: AsyncHTTPClient sends
    /// no name for an address and matches the certificate's IP entry.)
    static func socket(caFile: String?, serverURL: String) -> (tls: TLSConfiguration?, serverName: String?) {
        guard var tls = configuration(caFile: caFile) else { return (nil, nil) }
        guard let host = URL(string: serverURL)?.host, isAddress(host) else { return (tls, nil) }
        tls.certificateVerification = .noHostnameVerification
        return (tls, "hyzer-server")
    }

    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// Checks a `--ca` file when it is given (it must hold at least one PEM certificate)
    /// and returns its absolute path, which is what the link keeps.
    public static func checkCAFile(_ path: String) throws(SyncClientError) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        do {
            guard !(try NIOSSLCertificate.fromPEMFile(absolute)).isEmpty else {
                throw SyncClientError.untrusted("no certificate in the CA file \(absolute)")
            }
        } catch let error as SyncClientError {
            throw error
        } catch {
            throw .untrusted("cannot read the CA file \(absolute) (a PEM certificate expected): \(error)")
        }
        return absolute
    }

    /// A failed connection that was TLS refusing the server (its certificate, or the CA
    /// file): `.untrusted` with what to do. nil for any other failure (offline, refused).
    static func failure(_ error: any Error, privateCA: Bool) -> SyncClientError? {
        let text = String(describing: error)
        let isTLS =
            error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError
            || text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("handshakeFailed")
        guard isTLS else { return nil }
        let hint =
            privateCA
            ? "the server's certificate was not issued by the CA file this device was enrolled with (enroll again with the right --ca)"
            : "the server's certificate is not issued by a CA this device trusts; for a private CA, enroll with --ca FILE"
        // BoringSSL's own line (a path into its sources) is for the log, not the screen.
        let reason =
            text.contains("CERTIFICATE_VERIFY_FAILED")
            ? "certificate verify failed"
            : (error as? NIOSSLExtraError) == .failedToValidateHostname
                ? "the certificate is for another name than the server's address" : text
        return .untrusted("\(hint) (\(reason))")
    }
}
