import Foundation
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 9 item 2: a round started by mistake is discarded while it has no scores.
@Suite struct DiscardRoundTests {
    @Test func anEmptyRoundIsDiscardedAndLeftOutOfHistory() throws {
        let s = try TempStore()
        let kept = try s.activeRound(["A", "B"])
        _ = try s.score(kept, 0, hole: 1, 3)
        _ = try s.db.write(.finishRound(kept.id))
        let mistake = try s.activeRound(["C"])
        let discarded = try s.db.write(.discardRound(mistake.id))
        #expect(discarded.status == .completed)
        #expect(try s.db.read(.activeRounds).isEmpty)
        // A finished round with scores stays in history; the discarded one does not.
        #expect(try s.db.read(.history()).map(\.id) == [kept.id])
        #expect(throws: StoreError.scoring(.roundCompleted)) { _ = try s.score(mistake, 0, hole: 1, 3) }
    }

    @Test func aRoundWithScoresCannotBeDiscarded() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 1, hole: 4, 3)
        #expect(throws: StoreError.roundHasScores(round.id)) { _ = try s.db.write(.discardRound(round.id)) }
        #expect(try s.db.read(.round(id: round.id))?.status == .active)
        #expect(
            StoreError.roundHasScores(round.id).description
                == "the round has scores, so it cannot be discarded: finish it instead")
    }

    @Test func aCompletedRoundCannotBeDiscardedAgain() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.db.write(.discardRound(round.id))
        #expect(throws: StoreError.round(.invalidTransition(from: .completed, to: .completed))) {
            _ = try s.db.write(.discardRound(round.id))
        }
    }
}
