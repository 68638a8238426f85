import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// The shipped unit files pass `systemd-analyze verify` (where systemd is installed),
/// with ExecStart pointed at the freshly built binaries instead of /opt/hyzer/bin.
@Suite struct SystemdUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: analyze)),
        arguments: ["hyzer-kiosk.service", "hyzer-server.service"])
    func unitVerifies(name: String) async throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
        // Point ExecStart's binary at the one just built, wherever the unit installs it.
        let execStart = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let installed = String(execStart.dropFirst("ExecStart=".count).split(separator: " ")[0])
        let built = try Binary.url(URL(fileURLWithPath: installed).lastPathComponent).path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("units-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let unit = dir.appendingPathComponent(name)
        try text.replacingOccurrences(of: installed, with: built).write(to: unit, atomically: true, encoding: .utf8)
        let run = try await Binary.run(executable: URL(fileURLWithPath: Self.analyze), ["verify", unit.path])
        let output = run.stdout + run.stderr
        #expect(run.status == 0, "\(output)")
        #expect(!output.contains(name), "systemd-analyze complained: \(output)")
    }

    @Test func kioskUnitRunsOnTty1AndNeverStopsRestarting() async throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/hyzer-kiosk.service"), encoding: .utf8)
        for line in [
            "TTYPath=/dev/tty1", "Restart=always", "StartLimitIntervalSec=0", "LimitRTPRIO=10", "DeviceAllow=char-drm rw",
        ] {
            #expect(text.contains(line), "missing \(line)")
        }
        // The kiosk chooses its output (display.output): an SDL driver forced here would
        // override it.
        #expect(!text.contains("SDL_VIDEODRIVER"))
    }

    /// Both units are hardened (issue 13 item 3): systemd's own score of what the service
    /// could still do, read from the unit file alone, is at most 3.0 of 10. Negative control:
    /// the units before hardening scored 9.2 (kiosk) and 7.4 (server) with systemd 252.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: analyze)),
        arguments: ["hyzer-kiosk.service", "hyzer-server.service"])
    func unitIsHardened(name: String) async throws {
        let unit = repositoryRoot.appendingPathComponent("systemd/\(name)")
        let run = try await Binary.run(
            executable: URL(fileURLWithPath: Self.analyze), ["security", "--offline=true", "--no-pager", unit.path])
        let output = run.stdout + run.stderr
        // "→ Overall exposure level for hyzer-kiosk.service: 1.9 OK"
        let line = try #require(output.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(output)")
        let figure = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(figure <= 3.0, "\(line)")
    }
}
