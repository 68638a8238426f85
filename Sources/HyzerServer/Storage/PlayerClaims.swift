import Foundation
import HyzerSyncProtocol

// "Which player am I?" (issue 32): a phone joining with an invite may say which of the
// group's registered players it plays as. The claim is a column of the device's enrollment
// (`devices.player_id`), so it lives exactly as long as the enrollment: revoking the device
// frees it, and so does the admin's release (`hyzer-server device release`,
// `DELETE /v1/devices/{deviceID}/player`). One player has at most one active device; both
// backends check it in the redeem's transaction and keep a unique index as a backstop.
//
// The rules both backends share live here; the SQL lives with each backend (SQLiteStorage
// +Invites and +Devices, PostgresStorage+Joining and +Groups).

/// Why a claim is refused; each says what to do next. The invite is not spent.
public enum PlayerClaimError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id is none of the group's registered players (a guest, a deleted or made-up id).
    case notAPlayer(UUID)
    /// Another active device of the group plays as this player.
    case claimed(player: String, by: String)

    public var description: String {
        switch self {
        case .notAPlayer(let id):
            "player \(id.uuidString.lowercased()) is not a registered player of this group; pick a name from the list"
        case .claimed(let player, let device):
            "\(player) is already claimed by \(device); pick another name, or ask the group's admin to release \(player)"
        }
    }
}

extension InvitePlayers {
    /// The listing both backends answer: the winning version of each of the group's player
    /// records, and the names of the active devices that claimed them (by player id).
    /// Sorted by name as the kiosk lists players (case ignored), ties by id so the order
    /// never changes between two calls.
    init(groupName: String, players: [PlayerRecord], claims: [UUID: String]) {
        let listed = players.map { Player(id: $0.id, name: $0.displayName, claimedBy: claims[$0.id]) }
        self.init(
            groupName: groupName,
            players: listed.sorted { a, b in
                switch a.name.caseInsensitiveCompare(b.name) {
                case .orderedAscending: true
                case .orderedDescending: false
                case .orderedSame: a.id.uuidString < b.id.uuidString
                }
            })
    }
}

extension [PlayerRecord] {
    /// Each player's name now, by id (both backends' `playerNames`).
    var namesByID: [UUID: String] {
        Dictionary(map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
    }
}

extension PlayerRecord {
    /// The player record a stored feed payload holds, or nil for any other kind (or a
    /// payload that no longer decodes, which is left out rather than guessed at).
    static func decoded(from payload: Data, _ decoder: JSONDecoder) -> PlayerRecord? {
        guard case .player(let player)? = try? decoder.decode(SyncRecord.self, from: payload) else { return nil }
        return player
    }
}
