import Foundation
import HyzerHarness
import HyzerKit
import Testing

/// The status screen's journey at the real kiosk with no display (issue 9 item 6): menu →
/// Status, the buzzer test, back to the menu and the board, on the smallest panel.
@Suite(.serialized) struct KioskStatusHeadlessTests {
    @Test func theStatusScreenFromTheMenuAndBack() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-status-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let initialized = try await Binary.run("hyzer", ["init", "--data", dir.path])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        // No round and no group: the menu is Start a new round, Reduce motion, History, Stats, Join a
        // group, Status, Back to the board.
        let script = """
            long-press
            expect-screen menu
            turn 5
            press
            expect-screen status
            wait 2100
            snapshot status-refreshed
            press
            expect-screen status
            turn 1
            press
            expect-screen menu
            long-press
            expect-screen board

            """
        let scriptURL = dir.appendingPathComponent("status.txt")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let shots = dir.appendingPathComponent("shots")
        let run = try await Binary.run(
            "hyzer-kiosk",
            ["--data", dir.path, "--headless", "--size", "800x480", "--script", scriptURL.path, "--snapshots", shots.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let images = run.stdout.split(separator: "\n").map(String.init)
        let status = try #require(images.first { $0.hasSuffix("-status-refreshed.png") }, "\(images)")
        let image = try PNGImage(contentsOf: URL(fileURLWithPath: status))
        #expect(image.width == 800 && image.height == 480)
        #expect(image.distinctColours > 20, "the status screen looks blank")
    }
}
