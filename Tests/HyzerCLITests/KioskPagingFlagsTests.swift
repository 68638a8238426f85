import Foundation
import HyzerHarness
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

    /// A headless run that only waits on the board, long enough for a flip at 4.5 s.
    @Test func valuesInRangeRunTheKiosk() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-flags-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try Self.script("expect-screen board\nwait 5000\n", in: dir)
        let flags = ["--board-page-seconds", "4.5", "--board-rows-per-page", "3"]
        let run = try await Binary.run(
            "hyzer-kiosk",
            ["--data", dir.path, "--headless", "--size", "800x480", "--script", script.path, "--snapshots", dir.path + "/shots"]
                + flags)
        #expect(run.status == 0, "\(run.stderr)")
    }

    static func script(_ text: String, in dir: URL) throws -> URL {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("s.txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
