import Foundation
import Testing
@testable import HyzerSync

@Suite struct WakeupTests {
    /// Regression: a wait ended by a signal cancels its timer; the cancelled timer used to
    /// signal anyway, so every later wait returned at once and the engine spun a core.
    @Test func aWaitEndedEarlyLeavesNoStaleSignal() async throws {
        let wakeup = Wakeup()
        for _ in 0..<3 {
            Task { try await Task.sleep(nanoseconds: 20_000_000); wakeup.signal() }
            await wakeup.wait(seconds: 30)       // ends on the signal, long before 30 s
            try await Task.sleep(nanoseconds: 100_000_000)  // let the cancelled timer run
            #expect(!wakeup.isSignaled)
        }
    }

    @Test func aSignalWithNobodyWaitingIsKeptForTheNextWait() async {
        let wakeup = Wakeup()
        wakeup.signal()
        #expect(wakeup.isSignaled)
        await wakeup.wait(seconds: 30)           // returns at once: the signal was kept
        #expect(!wakeup.isSignaled)
    }
}
