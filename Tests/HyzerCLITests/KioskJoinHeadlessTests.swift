import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// Issue 9 item 5 at the real kiosk with no display: a kiosk in no group offers "Join a
/// group" in its menu; started without `--server` the join screen says how to give one, and
/// a long press goes back. Started with `--server`, against a real `hyzer-server`, the
/// script shows the code, the admin approves it with `hyzer-server device approve`, and the
/// kiosk joins. `HYZER_SNAPSHOT_DIR=docs/screens` copies `menu-join.png`,
/// `join-no-server.png`, `join-code.png` and `join-joined.png` there.
@Suite(.serialized) struct KioskJoinHeadlessTests {
    @Test func joinFromTheMenuWithoutAServerSaysHowToGiveOne() async throws {
        let journey = try await HeadlessJourney.demo("join", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        // With a round and no group: Enter scores, Finish round now, Enter a paper card, Start a
        // new round, Reduce motion, History, Stats, Join a group, Status, Courses, Players, Back to the board.
        let images = try await journey.play(
            """
            long-press
            expect-screen menu
            turn 7
            snapshot menu-join
            press
            expect-screen join
            snapshot join-no-server
            long-press
            expect-screen menu
            long-press
            expect-screen board

            """)
        try HeadlessJourney.check(["menu-join", "join-no-server"], in: images)
    }

    /// The whole journey with a server: code on screen, approved from the admin's shell,
    /// joined; the server then lists the kiosk in the group, and the kiosk keeps its link.
    @Test func joinFromTheMenuWithAServerShowsACodeTheAdminApproves() async throws {
        let journey = try await HeadlessJourney.demo("join-server", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        let serverDir = journey.dir.appendingPathComponent("server")
        let created = try await Binary.run("hyzer-server", ["group", "create", "Tuesday League", "--data", serverDir.path])
        #expect(created.status == 0, "\(created.stderr)")
        let listed = try await Binary.run("hyzer-server", ["group", "list", "--data", serverDir.path])
        let groupID = try #require(listed.stdout.split(separator: " ").first.map(String.init))

        let port = try freePort()
        let serverLog = journey.dir.appendingPathComponent("server.log")
        let server = try await Binary.start(
            "hyzer-server", ["--data", serverDir.path, "--port", "\(port)", "--host", "127.0.0.1"], output: .file(serverLog))
        defer { server.kill() }
        #expect(try await Self.line(in: serverLog, matching: "listening", within: 30) != nil, "the server did not start")

        let script = journey.dir.appendingPathComponent("join.txt")
        try """
        long-press
        expect-screen menu
        turn 7                      # Join a group
        press
        expect-screen join
        wait-for join-waiting 30    # the server's answer: a code
        snapshot join-code
        wait-for join-joined 120    # the admin's approval, seen at the kiosk's next poll
        snapshot join-joined

        """.write(to: script, atomically: true, encoding: .utf8)
        let kioskLog = journey.dir.appendingPathComponent("kiosk.log")
        let kiosk = try await Binary.start(
            "hyzer-kiosk",
            [
                "--data", journey.dir.path, "--headless", "--size", "1280x720", "--script", script.path,
                "--snapshots", journey.dir.appendingPathComponent("shots").path,
                "--server", "http://127.0.0.1:\(port)",
            ], output: .file(kioskLog))
        defer { kiosk.kill() }

        // The admin reads the code (from the kiosk's log here; from its screen at the tee).
        let shown = try #require(
            try await Self.line(in: kioskLog, matching: "join: showing code", within: 60), "no code was shown")
        let code = try #require(
            shown.split(separator: " ").first { $0.count == 9 && $0.dropFirst(4).first == "-" }.map(String.init))
        let wrongGroup = try await Binary.run(
            "hyzer-server", ["device", "approve", code, "--group", "no-such-group", "--data", serverDir.path])
        #expect(wrongGroup.status != 0, "a code is approved into its own group only")
        let approved = try await Binary.run(
            "hyzer-server", ["device", "approve", code, "--group", groupID, "--data", serverDir.path])
        #expect(approved.status == 0, "\(approved.stderr)")

        let ended = try await kiosk.waitForExit(timeout: .seconds(180))
        let output = (try? String(contentsOf: kioskLog, encoding: .utf8)) ?? ""
        #expect(ended.termination == .exited(0), "\(output)")
        let images = output.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".png") }
        try HeadlessJourney.check(["join-code", "join-joined"], in: images)
        let devices = try await Binary.run("hyzer-server", ["device", "list", groupID, "--data", serverDir.path])
        #expect(devices.stdout.contains("Kiosk ") && devices.stdout.contains("active"), "\(devices.stdout)")
        #expect(
            FileManager.default.fileExists(atPath: journey.dir.appendingPathComponent("sync-server.json").path),
            "the kiosk keeps its group link")
    }

    /// The first line of `file` containing `text`, waiting up to `seconds` for it.
    static func line(in file: URL, matching text: String, within seconds: Int) async throws -> String? {
        for _ in 0..<(seconds * 10) {
            if let content = try? String(contentsOf: file, encoding: .utf8),
                let line = content.split(separator: "\n").first(where: { $0.contains(text) })
            {
                return String(line)
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return nil
    }
}
