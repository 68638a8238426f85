import Foundation
import HyzerKit
import HyzerSyncProtocol

/// Names typed on a phone (issue 32): the kiosk asks for a code, a phone answers it once
/// with a name, the kiosk reads the name back. Like every code, only its hash is stored; the
/// name is not a secret (it goes on the board), and a row is of no use a day after it expired.
public protocol NameRequestStorage: Sendable {
    /// A new code for one name, asked for by `createdBy` (a device of `groupID`).
    func createNameRequest(groupID: String, createdBy: String, label: String, lifetime: Int) async throws -> NameRequest
    /// What the phone's page asks for, while the code can still be answered.
    func nameRequestPrompt(code: String) async throws -> NameRequestPrompt
    /// The phone's name; spends the code. The name follows a player's rules (the board
    /// shows it), so a name the kiosk would refuse is refused here, on the phone, already.
    func answerNameRequest(code: String, name: String) async throws -> NameAnswer
    /// The kiosk's look: the name once answered, nil while waiting; `.unknown` for a code
    /// of another group, `.expired` once it ran out unanswered.
    func nameRequestAnswer(code: String, groupID: String) async throws -> NameAnswer?
}

/// Why a name request cannot be used; each says what to do next.
public enum NameRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed
    case unknown
    case expired
    case used
    case badLabel(String)
    case badName(String)

    public var description: String {
        switch self {
        case .malformed: "not a name code: it is 8 letters from \(String(DeviceUserCode.alphabet))"
        case .unknown: "no such name code; scan the code on the kiosk again"
        case .expired: "this code has expired (they last a few minutes); the kiosk shows a new one"
        case .used: "this code was already used (each takes one name); the kiosk shows a new one"
        case .badLabel(let why), .badName(let why): why
        }
    }

    /// Checks the kiosk's label: what the phone's page says the name is for.
    /// Its length is counted as JSON Schema counts (code points, before trimming), so the
    /// server and docs/openapi.yaml draw the line at the same place.
    static func validLabel(_ label: String) throws(NameRequestError) -> String {
        guard !SyncProtocol.hasControlCharacter(label) else {
            throw .badLabel("a label cannot hold a control character (a tab, a line break, U+0000)")
        }
        let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .badLabel("a name request needs a label, such as \"Guest's name\"") }
        guard label.unicodeScalars.count <= NameRequestCreation.maxLabelLength else {
            throw .badLabel(
                "a label has at most \(NameRequestCreation.maxLabelLength) characters, not \(label.unicodeScalars.count)")
        }
        return trimmed
    }

    /// Checks the phone's name by a player's rules (HyzerKit's `Player`).
    static func validName(_ name: String) throws(NameRequestError) -> String {
        guard !SyncProtocol.hasControlCharacter(name) else {
            throw .badName("a name cannot hold a control character (a tab, a line break, U+0000)")
        }
        do {
            return try Player(displayName: name).displayName
        } catch {
            throw .badName(error.description)
        }
    }
}
