import Foundation
import HyzerHarness
import Testing

/// A data directory with a demo round on Riverside Nine, and a headless kiosk run of a script
/// against it: what the issue-9 journey tests share.
struct HeadlessJourney {
    let dir: URL
    let roundID: UUID

    /// `hyzer init`, then `hyzer demo` with `players` through `holesPlayed` holes.
    static func demo(_ label: String, players: Int, holesPlayed: Int) async throws -> HeadlessJourney {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-\(label)-\(UUID())")
        let initialized = try await Binary.run("hyzer", ["init", "--data", dir.path])
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let demo = try await Binary.run(
            "hyzer",
            [
                "demo", "--data", dir.path, "--players", "\(players)", "--holes-played", "\(holesPlayed)",
                "--course", "Riverside Nine",
            ])
        #expect(demo.status == 0, "\(demo.stderr)")
        let roundID = try #require(demo.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })
        return HeadlessJourney(dir: dir, roundID: roundID)
    }

    /// Plays `script` at 1280×720; returns the paths of the images it wrote.
    func play(_ script: String) async throws -> [String] {
        try await Self.play(script, in: dir, name: "journey")
    }

    /// Plays `script` at 1280×720 on the data directory `dir`, as `NAME.txt` with its images
    /// in `shots-NAME` (a script numbers its images from 001, so each run has its own folder).
    static func play(_ script: String, in dir: URL, name: String) async throws -> [String] {
        let scriptURL = dir.appendingPathComponent("\(name).txt")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--size", "1280x720", "--script", scriptURL.path,
                "--snapshots", dir.appendingPathComponent("shots-\(name)").path,
            ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Checks the named snapshots are full-size and not blank, and copies them to
    /// `HYZER_SNAPSHOT_DIR` as NAME.png when set (how docs/screens gets them).
    static func check(_ names: [String], in images: [String]) throws {
        for name in names {
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

    /// Pixels that differ between two snapshots of the same size, in the given region.
    static func differingPixels(_ a: PNGImage, _ b: PNGImage, x: Range<Int>, y: Range<Int>) -> Int {
        var differing = 0
        for row in y {
            for column in x {
                let i = (row * a.width + column) * 3
                if a.rgb[i..<i + 3] != b.rgb[i..<i + 3] { differing += 1 }
            }
        }
        return differing
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}
