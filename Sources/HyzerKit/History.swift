import Foundation

/// One completed round as the history list shows it (issue 9): when, where, who won and
/// who played. Completed rounds take no more score events, so this never goes stale.
public struct HistoryLine: Sendable, Hashable, Codable {
    public var roundID: UUID
    public var courseName: String
    /// When the round was finished (its creation time for a round synced without one).
    public var completedAt: Date
    /// The names at position 1: several on a tie, none when everyone is DNF.
    public var winners: [String]
    /// Every participant, in the round's order.
    public var players: [String]
    /// Whom each participant counts as, in the same order: a merged player's id is the
    /// one they were merged into (`PlayerMerges`), a guest's is their own.
    public var playerIDs: [UUID]
    /// Who finished it early or reopened it (issue 35), oldest first.
    public var actions: [RecordedAction]
    /// Cells corrected after a finish.
    public var correctedCells: Int

    public init(
        roundID: UUID, courseName: String, completedAt: Date, winners: [String], players: [String],
        playerIDs: [UUID] = [], actions: [RecordedAction] = [], correctedCells: Int = 0
    ) {
        self.roundID = roundID
        self.courseName = courseName
        self.completedAt = completedAt
        self.winners = winners
        self.players = players
        self.playerIDs = playerIDs
        self.actions = actions
        self.correctedCells = correctedCells
    }

    /// "Ana" or "Ana & Ben (tie)"; "no finisher" when nobody completed the round.
    public var winnerText: String {
        switch winners.count {
        case 0: "no finisher"
        case 1: winners[0]
        default: winners.joined(separator: " & ") + " (tie)"
        }
    }
}

/// Where the next page of history starts: the key of the last line shown. History is read
/// newest first by (completedAt, roundID), so a page is one index range, never an offset
/// that would re-read every earlier row.
public struct HistoryCursor: Sendable, Hashable, Codable {
    public var completedAt: Date
    public var roundID: UUID
    public init(completedAt: Date, roundID: UUID) {
        self.completedAt = completedAt
        self.roundID = roundID
    }
}

/// One page of history and where the next one starts (nil: this was the last).
public struct HistoryPage: Sendable, Hashable {
    public var lines: [HistoryLine]
    public var next: HistoryCursor?
    public init(lines: [HistoryLine], next: HistoryCursor?) {
        self.lines = lines
        self.next = next
    }
}

extension HistoryLine {
    /// The key of this line, for the page after it.
    public var cursor: HistoryCursor { HistoryCursor(completedAt: completedAt, roundID: roundID) }
}
