import Foundation
import HyzerKit
import HyzerSyncProtocol

/// What the live board needs from a storage backend: read-only view tokens, and the
/// current records a board is computed from. A capability of its own, apart from
/// `SyncStorage`: no sync route can reach a view token, so a leaked board link can read
/// the standings and nothing else.
public protocol LiveBoardStorage: Sendable {
    /// A new view token for the group (shown once; only its hash is stored).
    func createViewToken(groupID: String) async throws -> String
    /// The group a live view token reads; nil for an unknown or revoked one.
    func viewGroup(token: String) async throws -> String?
    /// Revokes every view token and summary link of the group (links shared too widely);
    /// returns how many.
    func revokeViewTokens(groupID: String) async throws -> Int
    /// The records of the group's board, read in one transaction; nil for an unknown group.
    func liveBoardSource(groupID: String) async throws -> LiveBoardSource?
    /// A new summary link's token for one round of the group. The round need not have
    /// reached the server yet: the kiosk asks as the round finishes, while its push may
    /// still be on the way, and the page waits for it.
    func createSummaryLink(groupID: String, roundID: UUID) async throws -> String
    /// The group and round a live summary link reads; nil for an unknown or revoked one.
    func summaryRound(token: String) async throws -> (groupID: String, roundID: UUID)?
    /// The records of one round of the group, whatever its status; nil when the group
    /// has no such round (yet).
    func roundSource(groupID: String, roundID: UUID) async throws -> LiveBoardSource?
    /// The records of the season `day` falls in (issue 37): nil when the group has none.
    /// With no day: no season, and every finished round (a net night's handicaps).
    func seasonSource(groupID: String, day: String?) async throws -> SeasonBoardSource?
}
