import Foundation
import HyzerSystem

extension ServerSettingsFile {
    /// The operations keys, beside the file's others (`ServerSettingsFile.schema`).
    public static let operationsKeys: [ConfigKey] = [
        ConfigKey("tls_cert", .absolutePath),
        ConfigKey("tls_key", .absolutePath),
        ConfigKey("metrics", .choice(MetricsAccess.allCases.map(\.rawValue))),
        ConfigKey(
            "rate_limit",
            .text(expects: "a rate such as \"20/s\" or \"600/min\", or \"0\" for none") {
                RateLimitPolicy.parseRate($0) == nil ? "not a rate" : nil
            }),
        ConfigKey("burst", .integer(0...100_000)),
    ]
}
