import Foundation

/// A registered player: a persistent identity across rounds (FR1), with the voice
/// aliases the parser checks before fuzzy matching (FR23).
public struct Player: Sendable, Hashable, Codable, Identifiable {
    public var id: UUID
    public var displayName: String
    public var aliases: [String]

    public init(id: UUID = UUID(), displayName: String, aliases: [String] = []) throws(PlayerError) {
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .emptyName }
        guard name.count <= Player.maxNameLength else { throw .nameTooLong(name.count) }
        self.id = id
        self.displayName = name
        self.aliases =
            aliases
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    public static let maxNameLength = 40
}

public enum PlayerError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName
    case nameTooLong(Int)

    public var description: String {
        switch self {
        case .emptyName: "a player needs a display name"
        case .nameTooLong(let n): "a display name has at most \(Player.maxNameLength) characters, not \(n)"
        }
    }
}
