import Foundation
import HyzerKit
import HyzerStore
import HyzerTestSupport
import Testing

/// Issue 9 item 2 at the real kiosk with no display: "Finish round now" names who is
/// missing which holes and asks; "Keep scoring" goes back; confirming finishes. Then a
/// round started by mistake is discarded from the menu.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskFinishHeadlessTests` also copies
/// `finish.png` and `discard.png` there.
@Suite(.serialized) struct KioskFinishHeadlessTests {
    /// The demo round: Nate, Mike and Jake through hole 6 of Riverside Nine.
    static let script = """
        expect-screen board
        long-press
        expect-screen menu
        turn 1                # Enter scores, Finish round now
        press
        expect-screen finish  # three players, holes 7–9, will be DNF
        snapshot finish
        turn 1                # Keep scoring
        press
        expect-screen hole-7
        long-press
        long-press
        turn 1
        press
        expect-screen finish
        press                 # Finish round
        expect-screen summary
        press
        expect-screen board
        press                 # start a round by mistake
        expect-screen setup-course
        turn 2                # Riverside Nine
        press
        expect-screen setup-players
        press                 # the first player
        turn 3                # Start round
        press
        expect-screen hole-1
        long-press
        long-press
        expect-screen menu
        turn 1                # Enter scores, Discard this round
        press
        expect-screen discard
        snapshot discard
        press
        expect-screen board   # the last round's card again

        """

    @Test func finishAsksThenAnEmptyRoundIsDiscarded() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-finish-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let initialized = try await Binary.run("hyzer", ["init", "--data", dir.path])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let demo = try await Binary.run(
            "hyzer", ["demo", "--data", dir.path, "--players", "3", "--holes-played", "6", "--course", "Riverside Nine"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let roundID = try #require(demo.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })

        let scriptURL = dir.appendingPathComponent("finish.txt")
        try Self.script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let shots = dir.appendingPathComponent("shots")
        let run = try await Binary.run(
            "hyzer-kiosk",
            ["--data", dir.path, "--headless", "--size", "1280x720", "--script", scriptURL.path, "--snapshots", shots.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")

        let db = try HyzerDatabase(directory: dir)
        // The demo round finished with its players DNF; the mistaken one discarded: completed,
        // empty, and not in history.
        #expect(try db.history().map(\.id) == [roundID])
        #expect(try db.snapshot(round: roundID).standings.rows.allSatisfy { $0.status == .dnf })
        #expect(try db.activeRounds().isEmpty)

        let images = run.stdout.split(separator: "\n").map(String.init)
        for name in ["finish", "discard"] {
            let path = try #require(images.first { $0.hasSuffix("-\(name).png") }, "\(name) in \(images)")
            let image = try PNGImage(contentsOf: URL(fileURLWithPath: path))
            #expect(image.width == 1280 && image.height == 720)
            #expect(image.distinctColours > 20, "\(name) looks blank")
            if let out = ProcessInfo.processInfo.environment["HYZER_SNAPSHOT_DIR"] {
                let target = URL(fileURLWithPath: out).appendingPathComponent("\(name).png")
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: target)
            }
        }
    }
}
