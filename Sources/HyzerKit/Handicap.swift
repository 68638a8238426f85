import Foundation

/// A player's handicap on a course (issue 37 item 2), in the style UDisc made familiar: the
/// average to-par of their best rounds among their most recent ones there. Explainable at the
/// tee: "your best 4 of your last 8 here averaged +2.5". docs/requirements.md, "Handicaps",
/// has the rule with a worked example (HandicapTests checks that example).
public enum Handicap {
    /// The most recent rounds on the course that count.
    public static let window = 8
    /// Fewer finished rounds on the course than this: no handicap (ranked gross, marked).
    public static let minimumRounds = 3

    /// The handicap from a player's finished rounds' to-par on one course, newest first;
    /// nil with fewer than `minimumRounds`. Of the last `window` rounds, the best half
    /// (rounded up) are averaged, to a tenth.
    public static func value(toPar newestFirst: [Int]) -> Double? {
        guard newestFirst.count >= minimumRounds else { return nil }
        let recent = newestFirst.prefix(window)
        let best = recent.sorted().prefix((recent.count + 1) / 2)
        let average = Double(best.reduce(0, +)) / Double(best.count)
        return (average * 10).rounded() / 10
    }

    /// A round's net to-par: gross less the handicap, to a tenth (a +2.5 player's +4 is
    /// a net +1.5; a −1.0 player's −1 is net E).
    public static func net(toPar: Int, handicap: Double) -> Double {
        ((Double(toPar) - handicap) * 10).rounded() / 10
    }

    /// "+2.5", "E", "-1.0" (the screens put their own minus in).
    public static func text(_ value: Double) -> String { ScoreFormat.toPar(tenths: value) }

    /// A league night's row ranked by net (issue 37), in tenths: gross to par less the
    /// handicap. While the player still has holes to play, the handicap counts in proportion
    /// to the holes played (a +9.0 player 6 holes into 18 is given +3.0), so the board
    /// compares like with like mid-round; a finished round takes it whole. A DNF is not
    /// given one (it is not ranked).
    public static func netTenths(toPar: Int, handicap: Double, thru: Int, holes: Int, playing: Bool) -> Int {
        let whole = (handicap * 10).rounded()
        let given = playing && holes > 0 ? (whole * Double(min(thru, holes)) / Double(holes)).rounded() : whole
        return toPar * 10 - Int(given)
    }
}
