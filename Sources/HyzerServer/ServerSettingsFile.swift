import Foundation
import HyzerSystem

/// `/etc/hyzer/server.conf`: where the group server keeps its data, where it listens and
/// what it logs, as a TOML file the package ships with every key commented. The command
/// line's flags override it.
public enum ServerSettingsFile {
    public static let defaultPath = "/etc/hyzer/server.conf"

    public static let schema: [ConfigKey] =
        [
            ConfigKey("data", .absolutePath),
            ConfigKey("host", .text(expects: "an IP address to listen on, e.g. \"0.0.0.0\"", check: address)),
            ConfigKey("port", .integer(1...65535)),
            ConfigKey("log_level", .choice(HyzerLogging.levels)),
            // PostgreSQL instead of SQLite in `data` (several instances over one database).
            ConfigKey(
                "database",
                .text(
                    expects: "a postgres:// URL, e.g. \"postgres://hyzer@/hyzer?host=/run/postgresql\"",
                    check: { text in
                        do throws(StorageError) {
                            _ = try PostgresLocation(url: text)
                            return nil
                        } catch { return error.description }
                    })),
        ] + operationsKeys

    /// Reads the file (nil when it is absent and was not asked for by name).
    public static func read(path: String?) throws(ConfigError) -> ConfigFile? {
        try ConfigFile.read(path: path ?? defaultPath, schema: schema, required: path != nil)
    }

    /// An IPv4 or IPv6 address (a name would be looked up at each start, and could move).
    static func address(_ text: String) -> String? {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 ? nil : "not an IP address"
    }
}
