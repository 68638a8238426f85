import Crypto
import Foundation

/// Bearer tokens: 32 random bytes, base64url, with a prefix saying what they are for
/// (`hza_` group admin, `hzd_` device) so a leaked one is easy to recognise in a log.
/// The server stores only their SHA-256: a copy of the database grants nothing.
enum Tokens {
    /// Longer than any token or code this server issues: a presented one past it is refused
    /// without hashing it or asking the database.
    static let longest = 200

    static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()  // getrandom(2) on Linux
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encoded = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + encoded
    }

    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}
