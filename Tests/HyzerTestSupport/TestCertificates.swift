import Foundation
import HyzerHarness

/// A throwaway private CA and a server certificate it issued for 127.0.0.1 and localhost,
/// made with the `openssl` command in a directory of the test's own: what a club's
/// installer does for a group server on its LAN (docs/architecture.md, "Server operations").
public struct TestCertificates: Sendable {
    public let directory: URL
    public var caCertificate: URL { directory.appendingPathComponent("ca.pem") }
    public var serverCertificate: URL { directory.appendingPathComponent("server.pem") }
    public var serverKey: URL { directory.appendingPathComponent("server.key") }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `name` keeps two CAs of one test apart (the wrong CA of a negative control).
    public static func make(name: String = "Hyzer Test CA") async throws -> TestCertificates {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: dir)
        let extensions = dir.appendingPathComponent("server.ext")
        try Data(
            """
            subjectAltName = IP:127.0.0.1, DNS:localhost
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth

            """.utf8
        ).write(to: extensions)
        let p = dir.path
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "\(p)/ca.key", "-out", "\(p)/ca.pem", "-days", "2", "-subj", "/CN=\(name)",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try await openssl(["req"] + ec + ["-keyout", "\(p)/server.key", "-out", "\(p)/server.csr", "-subj", "/CN=127.0.0.1"])
        try await openssl([
            "x509", "-req", "-in", "\(p)/server.csr", "-CA", "\(p)/ca.pem", "-CAkey", "\(p)/ca.key",
            "-set_serial", "\(UInt32.random(in: 1...UInt32.max))", "-days", "2", "-out", "\(p)/server.pem",
            "-extfile", extensions.path,
        ])
        return certificates
    }

    public func remove() { try? FileManager.default.removeItem(at: directory) }

    private static func openssl(_ arguments: [String]) async throws {
        let run = try await Binary.run(executable: URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        guard run.status == 0 else { throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(run.stderr)") }
    }
}
