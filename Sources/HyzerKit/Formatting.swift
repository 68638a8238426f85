import Foundation

/// How scores read everywhere: always a sign and a number, never colour alone (NFR18).
public enum ScoreFormat {
    /// "E", "+2", "-1". `minus` lets the board use a typographic minus (U+2212).
    public static func toPar(_ value: Int, minus: String = "-") -> String {
        value == 0 ? "E" : (value > 0 ? "+\(value)" : "\(minus)\(-value)")
    }

    /// To a tenth: "E", "+2.5", "-1.4" (an average, a handicap, a net score).
    public static func toPar(tenths value: Double, minus: String = "-") -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == 0 ? "E" : (rounded > 0 ? "+" : minus) + String(format: "%.1f", abs(rounded))
    }

    /// "thru 7", "F" when finished, "DNF".
    public static func progress(_ standing: Standing) -> String {
        switch standing.status {
        case .finished: "F"
        case .dnf: "DNF"
        case .playing: "thru \(standing.thru)"
        }
    }
}

/// SplitMix64: tiny, fast and fully specified, so a seed gives the same demo round, knob
/// trace or benchmark data on every machine and Swift version. The helpers below exist for
/// that reason too: the standard library's `random(in:)` and `shuffle` promise no sequence.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in the range (modulo bias is irrelevant at these sizes).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// Fisher–Yates with this generator's own `int(in:)`.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, int(in: 0...i))
        }
    }
}
