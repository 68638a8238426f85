import ArgumentParser
import HyzerServer
import HyzerSystem

/// `serve`'s operations flags: TLS, who reads `/metrics`, and each token's rate. Each
/// overrides the settings file's key of the same name (tls_cert, tls_key, metrics,
/// rate_limit, burst).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve HTTPS and WSS with this PEM certificate chain (with --tls-key).", valueName: "file"))
    var tlsCert: String?
    @Option(
        name: .customLong("tls-key"), help: ArgumentHelp("The certificate's PEM private key, unencrypted.", valueName: "file"))
    var tlsKey: String?
    @Option(
        help: ArgumentHelp(
            "Who may read GET /metrics: open (default), admin (any group's admin token) or off.", valueName: "access"))
    var metrics: String?
    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Requests each bearer token may make: N/s or N/min (default 20/s; 0 switches limiting off).", valueName: "rate"))
    var rateLimit: String?
    @Option(help: ArgumentHelp("Requests a token may make back to back (default 60).", valueName: "n")) var burst: Int?

    static let defaultPolicy = RateLimitPolicy()

    func validate() throws {
        if let metrics, MetricsAccess(rawValue: metrics) == nil {
            throw ValidationError("--metrics takes open, admin or off, got \"\(metrics)\"")
        }
        if let rateLimit, RateLimitPolicy.parseRate(rateLimit) == nil {
            throw ValidationError("--rate-limit takes N/s or N/min (0 for none), got \"\(rateLimit)\"")
        }
        if let burst, burst < 0 { throw ValidationError("--burst must be 0 or more") }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The flags, else the file, else the defaults; TLS files are read and checked here, so
    /// a wrong one stops the start (exit 78, as any setting's mistake).
    func apply(to config: inout ServerConfiguration, file: ConfigFile?) throws {
        let cert = tlsCert ?? file?.string("tls_cert")
        let key = tlsKey ?? file?.string("tls_key")
        switch (cert, key) {
        case (nil, nil): config.tls = nil
        case (let cert?, let key?): config.tls = try ServerTLS.configuration(certificate: cert, key: key)
        default: throw Failure(description: "TLS needs both a certificate and a key (--tls-cert and --tls-key)")
        }
        config.metrics = (metrics ?? file?.string("metrics")).flatMap(MetricsAccess.init(rawValue:)) ?? .open
        let rate = (rateLimit ?? file?.string("rate_limit")).flatMap(RateLimitPolicy.parseRate) ?? Self.defaultPolicy.rate
        config.rateLimit = RateLimitPolicy(rate: rate, burst: burst ?? file?.int("burst") ?? Self.defaultPolicy.burst)
    }
}
