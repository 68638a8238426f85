import Crypto
import Foundation
import _CryptoExtras

/// The organizer code as it is kept (issue 35 item 1): never the digits, a salted PBKDF2
/// (HMAC-SHA-256) of them, with the digits' count so the kiosk knows when the last one is in.
///
///     hyzer-code-v1$<digits>$<rounds>$<salt, base64>$<key, base64>
///
/// kiosk.conf's `lock.code_hash` holds one (`hyzer-kiosk --hash-code` makes it); a code
/// chosen at the kiosk is kept in the data directory's kiosk-settings.json. A short code has
/// few values, so the hash only keeps it from being read off a copied card; what stops a
/// guesser at the tee is the lock-out after five wrong codes (`OrganizerLock`).
public struct OrganizerCode: Sendable, Equatable {
    public let digits: Int
    let rounds: Int
    let salt: [UInt8]
    let key: [UInt8]

    static let prefix = "hyzer-code-v1"
    /// OWASP's floor for PBKDF2-HMAC-SHA-256 (Crypto's checked call refuses fewer); one
    /// derivation a code entered.
    public static let defaultRounds = 210_000
    static let keyBytes = 32

    /// A code's digits and nothing else, 4 to 8 of them; nil otherwise.
    public static func validDigits(_ code: String) -> Bool {
        (4...8).contains(code.count) && code.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Hashes `code` with a fresh random salt.
    public static func hashing(_ code: String, rounds: Int = defaultRounds) throws -> OrganizerCode {
        guard validDigits(code) else { throw OrganizerCodeError("an organizer code is 4 to 8 digits") }
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = generator.next() }
        return OrganizerCode(digits: code.count, rounds: rounds, salt: salt, key: try derive(code, salt: salt, rounds: rounds))
    }

    static func derive(_ code: String, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        // Unchecked: a kept form's rounds were checked when it was read (at least 1,000, so
        // the tests can hash quickly); new codes get `defaultRounds`.
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(code.utf8), salt: salt, using: .sha256, outputByteCount: keyBytes, unsafeUncheckedRounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }

    /// Whether `code` is this one. The comparison takes the same time wherever they differ.
    public func matches(_ code: String) -> Bool {
        guard code.count == digits, let derived = try? Self.derive(code, salt: salt, rounds: rounds) else { return false }
        return zip(derived, key).reduce(0 as UInt8) { $0 | ($1.0 ^ $1.1) } == 0 && derived.count == key.count
    }

    /// The kept form.
    public var encoded: String {
        [Self.prefix, "\(digits)", "\(rounds)", Data(salt).base64EncodedString(), Data(key).base64EncodedString()]
            .joined(separator: "$")
    }

    /// Reads the kept form; throws saying what is wrong with it.
    public init(encoded text: String) throws(OrganizerCodeError) {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == Self.prefix else {
            throw OrganizerCodeError("not an organizer code hash (\(Self.prefix)$…, made by hyzer-kiosk --hash-code)")
        }
        guard let digits = Int(parts[1]), (4...8).contains(digits) else {
            throw OrganizerCodeError("the code's length must be 4 to 8 digits")
        }
        guard let rounds = Int(parts[2]), (1_000...10_000_000).contains(rounds) else {
            throw OrganizerCodeError("the hash's rounds must be 1000 to 10000000")
        }
        guard let salt = Data(base64Encoded: parts[3]), salt.count >= 8,
            let key = Data(base64Encoded: parts[4]), key.count == Self.keyBytes
        else { throw OrganizerCodeError("the hash's salt or key is not valid base64 of the right size") }
        self.init(digits: digits, rounds: rounds, salt: Array(salt), key: Array(key))
    }

    init(digits: Int, rounds: Int, salt: [UInt8], key: [UInt8]) {
        (self.digits, self.rounds, self.salt, self.key) = (digits, rounds, salt, key)
    }
}

public struct OrganizerCodeError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
