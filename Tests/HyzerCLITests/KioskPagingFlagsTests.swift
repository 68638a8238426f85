import Foundation
import HyzerTestSupport
import Testing

/// `hyzer-kiosk --board-page-seconds N --board-rows-per-page N` (issue 15): values a board can
/// be read with are taken, the rest refused with a message that says the range.
@Suite struct KioskPagingFlagsTests {
    @Test(arguments: [
        (["--board-page-seconds", "1"], "--board-page-seconds takes 3 to 120"),
        (["--board-page-seconds", "600"], "--board-page-seconds takes 3 to 120"),
        (["--board-rows-per-page", "0"], "--board-rows-per-page takes 1 to 100"),
    ])
    func outOfRangeValuesAreRefused(flags: [String], message: String) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-flags-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await Binary.run("hyzer-kiosk", ["--data", dir.path, "--headless"] + flags)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func valuesInRangeRunTheKiosk() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-flags-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("s.txt")
        try "expect-screen board\nwait 5000\n".write(to: script, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--size", "800x480", "--script", script.path, "--snapshots",
                dir.appendingPathComponent("shots").path, "--board-page-seconds", "4.5", "--board-rows-per-page", "3",
            ])
        #expect(run.status == 0, "\(run.stderr)")
    }
}
