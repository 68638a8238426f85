import Foundation

/// CPU time and peak memory of this process, for `--run-for` reports and benchmarks.
public struct ResourceUsage: Sendable, Codable {
    public var cpuSeconds: Double
    public var maxRSSMegabytes: Double

    public static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ResourceUsage(cpuSeconds: cpu, maxRSSMegabytes: Double(usage.ru_maxrss) / 1024)
    }

    /// Resident memory now (VmRSS), which unlike the peak excludes start-up transients.
    public static func currentRSSMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kb = line.split(separator: " ").compactMap { Double($0) }.first
            return kb.map { $0 / 1024 }
        }
        return nil
    }
}
