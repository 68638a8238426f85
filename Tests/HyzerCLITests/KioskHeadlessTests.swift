import CZlib
import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// A whole round at the kiosk, knob only, with no display: from the empty board through
/// round setup, nine holes, the finalize prompt and the summary card.
@Suite(.serialized) struct KioskHeadlessTests {
    @Test func wholeRoundKnobOnlyFromSetupToSummary() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["init"], ["player", "add", "Ana"], ["player", "add", "Ben"], ["player", "add", "Cy"]] {
            let run = try await Binary.run("hyzer", args + ["--data", dir.path])
            #expect(run.status == 0, "\(args): \(run.stderr)")
        }
        // Courses sort by name: Pine Hollow, Ridgeback Championship, Riverside Nine.
        var script = """
            expect-screen board
            press
            expect-screen setup-course
            turn 2
            press
            expect-screen setup-players
            press        # Ana
            turn 1
            press        # Ben
            turn 2
            press        # Start
            expect-screen confirm-round
            press        # the card: Start round
            expect-screen hole-1

            """
        // Ana: par, birdie, par…; Ben: one over on every hole (par 4 on hole 5).
        let anaDelta = [0, -1, 0, 0, 1, 0, -1, 0, 0]
        for hole in 1...9 {
            script += "expect-screen hole-\(hole)\npress\nturn \(anaDelta[hole - 1])\npress\npress\nturn 1\npress\nwait 800\n"
        }
        script += """
            expect-screen finalize
            press
            expect-screen summary
            wait 400
            press
            expect-screen board

            """
        let scriptURL = dir.appendingPathComponent("round.txt")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let shots = dir.appendingPathComponent("shots")
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--size", "800x480",
                "--script", scriptURL.path, "--snapshots", shots.path,
            ])
        #expect(run.status == 0, "stderr: \(run.stderr)")

        // The database holds exactly what the knob entered.
        let db = try HyzerDatabase(directory: dir)
        let history = try await db.read(.history())
        #expect(history.count == 1)
        let round = try #require(history.first)
        #expect(round.courseName == "Riverside Nine")
        let snapshot = try await db.read(.snapshot(round: round.id))
        #expect(snapshot.round.status == .completed)
        #expect(snapshot.round.participants.map(\.name) == ["Ana", "Ben"])
        #expect(snapshot.events.count == 18)
        let rows = snapshot.standings.rows
        #expect(rows.map(\.name) == ["Ana", "Ben"])
        #expect(rows[0].toPar == anaDelta.reduce(0, +) && rows[0].status == .finished)
        #expect(rows[1].toPar == 9 && rows[1].strokes == snapshot.course.totalPar + 9)

        // One image per screen visited, none of them blank.
        let images = run.stdout.split(separator: "\n").map(String.init)
        #expect(images.count >= 20)
        for name in ["board", "setup-course", "setup-players", "hole-1", "entry-hole-9", "finalize", "summary"] {
            #expect(images.contains { $0.hasSuffix("-\(name).png") }, "no snapshot of \(name)")
        }
        for path in images {
            let image = try PNGImage(contentsOf: URL(fileURLWithPath: path))
            #expect(image.width == 800 && image.height == 480)
            #expect(image.distinctColours > 20, "\(path) looks blank (\(image.distinctColours) colours)")
        }
    }

    @Test func badScriptLineIsReportedWithItsNumber() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scriptURL = dir.appendingPathComponent("bad.txt")
        try "press\njump 3\n".write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--script", scriptURL.path,
                "--snapshots", dir.appendingPathComponent("s").path,
            ])
        #expect(run.status != 0)
        #expect(run.stderr.contains("script line 2: unknown command \"jump\""), "\(run.stderr)")
    }

    /// `wait-for` with nothing to wait on (no `--server`) ends with a sentence saying why, and
    /// one with a bad time is refused before anything runs.
    @Test func waitForWithoutAServerSaysWhyItTimedOut() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (script, message) in [
            ("long-press\nwait-for join-waiting 1\n", "script line 2: waited 1 s for join-waiting, but the kiosk shows menu"),
            ("wait-for join-waiting 0\n", "script line 1: wait-for waits 1 to 600 seconds"),
        ] {
            let scriptURL = dir.appendingPathComponent("wait.txt")
            try script.write(to: scriptURL, atomically: true, encoding: .utf8)
            let run = try await Binary.run(
                "hyzer-kiosk",
                [
                    "--data", dir.path, "--headless", "--script", scriptURL.path,
                    "--snapshots", dir.appendingPathComponent("s").path,
                ])
            #expect(run.status != 0)
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
    }

    @Test func demoRoundShowsOnTheBoardAndOtherProcessesWritesAppear() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scriptURL = dir.appendingPathComponent("idle.txt")
        try "expect-screen board\nwait 200\n".write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--demo", "--script", scriptURL.path,
                "--snapshots", dir.appendingPathComponent("s").path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let db = try HyzerDatabase(directory: dir)
        #expect(try await db.read(.activeRounds).count == 1)
    }
}

/// A decoded PNG as written by the kiosk (8-bit RGB, filters None/Up/Sub/Average/Paeth).
struct PNGImage {
    var width = 0, height = 0
    var rgb: [UInt8] = []

    var distinctColours: Int {
        var seen = Set<UInt32>()
        for i in stride(from: 0, to: rgb.count, by: 3 * 7) {  // every 7th pixel is plenty
            seen.insert(UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2]))
        }
        return seen.count
    }

    init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var offset = 8
        var idat: [UInt8] = []
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            if type == "IHDR" {
                width = u32(offset + 8)
                height = u32(offset + 12)
            }
            if type == "IDAT" { idat += body }
            offset += 12 + length
        }
        let stride = width * 3
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var rawLength = uLongf(raw.count)
        guard uncompress(&raw, &rawLength, idat, uLong(idat.count)) == Z_OK else { throw CocoaError(.fileReadCorruptFile) }
        rgb = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let value = raw[y * (stride + 1) + 1 + x]
                let up = y > 0 ? rgb[(y - 1) * stride + x] : 0
                let left = x >= 3 ? rgb[y * stride + x - 3] : 0
                let upLeft = (x >= 3 && y > 0) ? rgb[(y - 1) * stride + x - 3] : 0
                let predicted: UInt8
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = UInt8((Int(left) + Int(up)) / 2)
                case 4:
                    let p = Int(left) + Int(up) - Int(upLeft)
                    let (pa, pb, pc) = (abs(p - Int(left)), abs(p - Int(up)), abs(p - Int(upLeft)))
                    predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: predicted = 0
                }
                rgb[y * stride + x] = value &+ predicted
            }
        }
    }
}
