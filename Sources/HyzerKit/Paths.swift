import Foundation

/// Where the executables keep their state and find their shipped assets: the one resolver that
/// `hyzer`, `hyzer-kiosk`, `hyzer-server` and `hyzer-bench` share, so `--data` and the defaults
/// mean the same thing everywhere. It only computes paths; it creates and opens nothing.
public enum HyzerPaths {
    /// Whose state a data directory holds: a device's (the kiosk, the `hyzer` CLI, a benchmark's
    /// device) or the group server's. They differ only in their defaults.
    public enum Owner: Sendable {
        case device
        case server

        /// The installed location, used when the running account may write it.
        public var systemDirectory: String {
            switch self {
            case .device: "/var/lib/hyzer"
            case .server: "/var/lib/hyzer-server"
            }
        }

        /// `--data`'s help text, naming the defaults.
        public var dataOptionHelp: String {
            switch self {
            case .device: "State directory (default: /var/lib/hyzer if writable, else $XDG_DATA_HOME/hyzer)."
            case .server: "Server state directory (default: /var/lib/hyzer-server if writable, else ./hyzer-server-data)."
            }
        }
    }

    /// `--data DIR` if given; else the owner's system directory (`/var/lib/hyzer`, or
    /// `/var/lib/hyzer-server`) when writable, as on an installed kiosk or server; else, for a
    /// developer's account, `$XDG_DATA_HOME/hyzer` (`~/.local/share/hyzer`) for a device and
    /// `./hyzer-server-data` (relative to the working directory) for the server.
    ///
    /// `isWritable` is the file system's answer by default; tests pass their own.
    public static func dataDirectory(
        explicit: String?,
        for owner: Owner = .device,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isWritable: (String) -> Bool = { FileManager.default.isWritableFile(atPath: $0) }
    ) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit, isDirectory: true) }
        if isWritable(owner.systemDirectory) { return URL(fileURLWithPath: owner.systemDirectory, isDirectory: true) }
        switch owner {
        case .device:
            let xdg =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/share")
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("hyzer", isDirectory: true)
        case .server:
            return URL(fileURLWithPath: "hyzer-server-data", isDirectory: true)
        }
    }

    /// The `assets/` folder that holds `marker` (courses.json and the fonts for a device, web/
    /// for the server): `$HYZER_ASSETS` (nil if it lacks the marker), then an installed
    /// package's folder beside the binary's `bin/` (`share/hyzer/assets`, the kiosk package's;
    /// `share/hyzer-server/assets`, the server package's), then the nearest `assets/` above the
    /// executable or the working directory (a checkout running `.build/debug/hyzer`).
    public static func assetsDirectory(
        containing marker: String = "courses.json",
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String? = runningExecutable,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> URL? {
        let fm = FileManager.default
        func valid(_ url: URL) -> Bool { fm.fileExists(atPath: url.appendingPathComponent(marker).path) }
        if let env = environment["HYZER_ASSETS"], !env.isEmpty {
            let url = URL(fileURLWithPath: env, isDirectory: true)
            return valid(url) ? url : nil
        }
        var starts: [URL] = []
        if let executable {
            starts.append(URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(URL(fileURLWithPath: workingDirectory, isDirectory: true))
        for start in starts {
            for package in ["hyzer", "hyzer-server"] {
                let shared = start.deletingLastPathComponent().appendingPathComponent("share/\(package)/assets")
                if valid(shared) { return shared }
            }
            var dir = start.standardizedFileURL
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("assets", isDirectory: true)
                if valid(candidate) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }

    /// The running binary's own path. Not `argv[0]`: run from `$PATH` (`hyzer init` in any
    /// directory) that is the bare name, which would be looked up in the working directory.
    public static var runningExecutable: String? {
        // The kernel's link names the file whatever started it, and through any symlink.
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }
}
