/// The drawing times of the last frames, in a fixed ring: the status screen's p50/p99
/// without a list that grows over weeks of uptime.
public struct FrameTimes: Sendable, Equatable {
    public static let capacity = 240
    private var samples: [UInt64] = []
    private var next = 0

    public init() {}

    public var count: Int { samples.count }

    public mutating func record(nanoseconds: UInt64) {
        if samples.count < Self.capacity {
            samples.append(nanoseconds)
        } else {
            samples[next] = nanoseconds
        }
        next = (next + 1) % Self.capacity
    }

    /// The `fraction` percentile (nearest rank) in milliseconds; nil before any frame.
    public func percentile(_ fraction: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return Double(sorted[rank]) / 1e6
    }
}
