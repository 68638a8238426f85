import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// HTTPS and WSS from a PEM certificate chain and key (`--tls-cert`, `--tls-key`): read
/// and checked when the server starts, so a wrong path, a damaged file or a key that does
/// not match the certificate stops the start with one clear line instead of failing every
/// handshake later.
public enum ServerTLS {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func configuration(certificate: String, key: String) throws(Failure) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw Failure(description: "cannot read the TLS certificate \(certificate) (PEM expected): \(error)")
        }
        guard !chain.isEmpty else { throw Failure(description: "no certificate in \(certificate) (PEM expected)") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw Failure(description: "cannot read the TLS key \(key) (unencrypted PEM expected): \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // A closing connection waits this long for the peer's close_notify (NIOSSL's default
        // is 5 s): with it, a stop waited out the full 5 s on an idle keep-alive connection.
        configuration.shutdownTimeout = .seconds(1)
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw Failure(description: "the TLS key \(key) does not go with the certificate \(certificate): \(error)")
        }
        return configuration
    }

}

extension HTTPServerBuilder {
    /// This channel as it is, or wrapped in TLS. (HummingbirdTLS' builder is declared
    /// `throws` but only builds its channel later; should it ever throw here, the server
    /// fails to start with that error rather than serve plain HTTP.)
    func secured(by configuration: TLSConfiguration?) -> HTTPServerBuilder {
        guard let configuration else { return self }
        do {
            return try .tls(self, tlsConfiguration: configuration)
        } catch {
            return HTTPServerBuilder { _ in throw error }
        }
    }
}
