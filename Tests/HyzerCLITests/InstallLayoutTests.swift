import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// Issue 13 item 1: what `make install` (board/package/install, which also stages the Debian
/// packages) lays out works from any directory. The built binaries are installed under a
/// scratch DESTDIR with PREFIX=/usr/local; the installed `hyzer` then finds its courses in
/// ../share/hyzer/assets from its own location, run by name from $PATH in an unrelated working
/// directory, with no HYZER_ASSETS. Negative control: with the assets removed the same command
/// fails, saying it cannot find them (so the first run did not find a checkout's).
@Suite struct InstallLayoutTests {
    @Test func theInstalledToolFindsItsAssetsFromAnyDirectory() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-install-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let destdir = root.appendingPathComponent("dest")
        let binDir = try Binary.url("hyzer").deletingLastPathComponent()
        let install = try await Binary.run(
            executable: repositoryRoot.appendingPathComponent("board/package/install"),
            [destdir.path, "/usr/local", binDir.path, "kiosk"])
        #expect(install.status == 0, "\(install.stderr)")
        let prefix = destdir.appendingPathComponent("usr/local")
        for path in [
            "bin/hyzer", "bin/hyzer-kiosk", "share/hyzer/assets/courses.json", "share/hyzer/assets/fonts/Quicksand-Bold.ttf",
            "lib/systemd/system/hyzer-kiosk.service", "lib/sysusers.d/hyzer-kiosk.conf",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path) not installed")
        }
        #expect(FileManager.default.fileExists(atPath: destdir.appendingPathComponent("etc/hyzer/kiosk.conf").path))
        let unit = try String(
            contentsOf: prefix.appendingPathComponent("lib/systemd/system/hyzer-kiosk.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/hyzer-kiosk"), "the unit names the prefix's binary")

        let elsewhere = root.appendingPathComponent("somewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HYZER_ASSETS"] = nil
        environment["PATH"] = prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"
        func initialize(_ data: String) async throws -> Binary.Result {
            try await Binary.run(
                executable: URL(fileURLWithPath: "/bin/sh"),
                ["-c", "cd \"$1\" && hyzer init --data \"$2\"", "sh", elsewhere.path, root.appendingPathComponent(data).path],
                environment: environment)
        }
        let first = try await initialize("data")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("seeded from \(prefix.path)/share/hyzer/assets/courses.json"), "\(first.stdout)")

        try FileManager.default.removeItem(at: prefix.appendingPathComponent("share/hyzer"))
        let without = try await initialize("data2")
        #expect(without.status != 0)
        #expect(without.stderr.contains("cannot find assets/courses.json"), "\(without.stderr)")
    }
}
