import Foundation

/// Where executables keep their state and find their shipped assets.
public enum HyzerPaths {
    /// `--data DIR` if given; else `/var/lib/hyzer` when writable (the installed kiosk);
    /// else `$XDG_DATA_HOME/hyzer` (`~/.local/share/hyzer`) for a developer's account.
    public static func dataDirectory(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit, isDirectory: true) }
        let system = "/var/lib/hyzer"
        if FileManager.default.isWritableFile(atPath: system) { return URL(fileURLWithPath: system, isDirectory: true) }
        let xdg = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("hyzer", isDirectory: true)
    }

    /// The `assets/` folder: `$HYZER_ASSETS`, then `/usr/share/hyzer/assets` beside an
    /// installed binary, then the nearest `assets/` above the executable or the working
    /// directory (a checkout running `.build/debug/hyzer`).
    public static func assetsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        func valid(_ url: URL) -> Bool { fm.fileExists(atPath: url.appendingPathComponent("courses.json").path) }
        if let env = environment["HYZER_ASSETS"], !env.isEmpty {
            let url = URL(fileURLWithPath: env, isDirectory: true)
            return valid(url) ? url : nil
        }
        var starts: [URL] = []
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
        starts.append(executable.deletingLastPathComponent())
        starts.append(URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true))
        for start in starts {
            let shared = start.deletingLastPathComponent().appendingPathComponent("share/hyzer/assets")
            if valid(shared) { return shared }
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
}
