import Foundation
import Testing

@testable import HyzerKit

/// Issue 37 item 2: the handicap rule, on docs/requirements.md's worked example.
@Suite struct HandicapTests {
    /// The worked example (docs/requirements.md, "Handicaps"): Sarah's last ten rounds on Pine
    /// Hollow, newest first, to par: +3, +1, +6, 0, +2, +4, −1, +5, +9, +2. The last 8 count
    /// (+9 and +2, the oldest, fall out); their best 4 are −1, 0, +1, +2, averaging +0.5: her
    /// handicap. Mike's last four there are −3, −1, 0, +2: the best 2 (half, rounded up) average
    /// −2.0. Tonight Sarah shoots +1 and Mike −1: Mike wins gross, but net Sarah's +0.5 beats
    /// Mike's +1.0.
    @Test func theWorkedExample() {
        let sarah = [3, 1, 6, 0, 2, 4, -1, 5, 9, 2]
        #expect(Handicap.value(toPar: sarah) == 0.5)
        #expect(Handicap.text(0.5) == "+0.5")
        #expect(Handicap.value(toPar: [-3, -1, 0, 2]) == -2.0)
        let sarahNet = Handicap.net(toPar: 1, handicap: 0.5)
        let mikeNet = Handicap.net(toPar: -1, handicap: -2.0)
        #expect(sarahNet == 0.5 && mikeNet == 1.0 && sarahNet < mikeNet)
        #expect(Handicap.text(Handicap.net(toPar: -2, handicap: -2.0)) == "E")
        // Three rounds: the best two (half, rounded up) of +1, +2, +6 → 1.5.
        #expect(Handicap.value(toPar: [1, 2, 6]) == 1.5)
        // Two rounds: no handicap yet (ranked gross, marked).
        #expect(Handicap.value(toPar: [0, 1]) == nil)
        // Rounded to a tenth: best 2 of +1, +2, +2 are +1 and +2 → 1.5; best 3 of five
        // rounds −1, 0, 0, 4, 5 → (−1 + 0 + 0) / 3 = −0.33… → −0.3.
        #expect(Handicap.value(toPar: [0, 4, -1, 5, 0]) == -0.3)
    }
}
