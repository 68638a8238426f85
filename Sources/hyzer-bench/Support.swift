import Foundation

/// Monotonic time in nanoseconds.
func nowNs() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Nearest-rank percentile of an unsorted sample.
func percentile(_ samples: [Double], _ p: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }

/// One JSON object, keys sorted, for the last output line.
func jsonLine(_ figures: [String: Double]) -> String {
    let body = figures.keys.sorted().map { key -> String in
        let value = figures[key]!
        let text = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(round3(value))
        return "\"\(key)\": \(text)"
    }
    return "{" + body.joined(separator: ", ") + "}"
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
