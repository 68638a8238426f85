import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 12: while scores cannot be saved (a read-only or full card) the board says so and
/// why, for as long as it lasts; a refused save still gets its own notice and buzz.
@Suite struct StorageWarningTests {
    @Test func aStorageWarningStaysOverTheBoardUntilItClears() throws {
        var h = try Harness()
        let warning = "Storage is read-only: scores cannot be saved"
        #expect(h.send(.storageChanged(warning)).isEmpty, "no buzz: nobody pressed anything")
        #expect(h.state.notice?.text == warning)
        #expect(h.state.screen == .board)
        h.advance(MotionTokens.noticeLifetime)
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice?.text == warning, "still shown after the notice lifetime")

        // A refused save shows its own line and buzzes, then the warning comes back.
        #expect(h.send(.effectFailed("Storage is read-only: scores cannot be saved (hole 3)")) == [.buzz(.error)])
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice?.text == warning)

        h.send(.storageChanged(nil))
        #expect(h.state.notice == nil)
        #expect(h.state.storageWarning == nil)
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice == nil)
    }

    @Test func clearingTheWarningLeavesAnotherNoticeAlone() throws {
        var h = try Harness()
        h.send(.storageChanged("Storage full (0 MB free): not saved"))
        h.send(.effectFailed("round already finished"))
        h.send(.storageChanged(nil))
        #expect(h.state.notice?.text == "round already finished")
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice == nil)
    }
}
