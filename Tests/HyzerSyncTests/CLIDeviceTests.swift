import Foundation
import HyzerHarness
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerTestSupport
import Testing

/// The real `hyzer` binary as a device against an in-process server.
@Suite(.serialized) struct CLIDeviceTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func hyzer(_ arguments: [String]) async throws -> Run {
        var env = ProcessInfo.processInfo.environment
        env["HYZER_ASSETS"] = repositoryRoot.appendingPathComponent("assets").path
        let run = try await Binary.run("hyzer", arguments, environment: env)
        return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// `hyzer score` and `hyzer voice` wait 4 s at most for their sync (the score is safe
    /// already). On a machine busy with other tests that deadline can pass (seen in CI, twice):
    /// then the command must say so, and the next `hyzer sync` carries the score, as created
    /// now or as already there (the late push did land; only its answer was late). Any other
    /// outcome fails.
    static func expectSyncedOrCarriedByTheNextSync(_ recorded: Run, data: String, scores: Int) async throws {
        if recorded.stdout.contains("synced with") { return }
        #expect(
            recorded.stdout.contains("not synced yet") && recorded.stdout.contains("deadlineExceeded"), "\(recorded.stdout)")
        let retried = try await hyzer(["sync", "--data", data])
        let pushed = try #require(
            retried.stdout.firstMatch(of: /pushed: (\d+) created, (\d+) already there, (\d+) rejected/), "\(retried.stdout)")
        #expect(retried.status == 0 && Int(pushed.1)! + Int(pushed.2)! == scores && pushed.3 == "0", "\(retried.stdout)")
    }

    @Test func cliDevicesScoreVoiceAndSync() async throws {
        try await withGroup { group in
            let a = temporaryDirectory("cli-a").path
            let b = temporaryDirectory("cli-b").path
            defer { for d in [a, b] { try? FileManager.default.removeItem(atPath: d) } }
            let url = group.server.baseURL

            let badToken = try await Self.hyzer([
                "device", "enroll", "--server", url, "--group-token", "hza_wrong", "--name", "A", "--data", a,
            ])
            #expect(badToken.status != 0)
            #expect(badToken.stderr.contains("enrollment failed") && badToken.stderr.contains("401"), "\(badToken.stderr)")
            let notEnrolled = try await Self.hyzer(["sync", "--data", a])
            #expect(notEnrolled.status != 0)
            #expect(notEnrolled.stderr.contains("not enrolled"))

            for (dir, name) in [(a, "CLI A"), (b, "CLI B")] {
                let run = try await Self.hyzer([
                    "device", "enroll", "--server", url, "--group-token", group.adminToken, "--name", name, "--data", dir,
                ])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.stdout.contains("enrolled \"\(name)\""))
            }
            let demo = try await Self.hyzer(["demo", "--data", a, "--players", "4", "--holes-played", "2"])
            let round = try #require(demo.stdout.split(separator: "\n").last.map(String.init))
            #expect(try await Self.hyzer(["sync", "--data", a]).status == 0)
            let pulled = try await Self.hyzer(["sync", "--data", b])
            #expect(pulled.status == 0 && pulled.stdout.contains("pulled:"), "\(pulled.stdout)\(pulled.stderr)")

            // B scores by (case-insensitive) name; the score is pushed at once.
            let score = try await Self.hyzer(["score", "--data", b, round, "mike", "3", "4"])
            #expect(score.status == 0, "\(score.stderr)")
            #expect(score.stdout.contains("recorded Mike, hole 3: 4"), "\(score.stdout)")
            try await Self.expectSyncedOrCarriedByTheNextSync(score, data: b, scores: 1)
            // A says it differently: one discrepancy on both devices once synced.
            let voice = try await Self.hyzer(["voice", "--data", a, "current", "Mike 5, Jake 3", "--hole", "3"])
            #expect(voice.status == 0, "\(voice.stderr)")
            #expect(voice.stdout.contains("recorded Jake, hole 3: 3"))
            try await Self.expectSyncedOrCarriedByTheNextSync(voice, data: a, scores: 2)
            #expect(try await Self.hyzer(["sync", "--data", b]).status == 0)
            let standingsA = try await Self.hyzer(["standings", round, "--data", a, "--json"])
            let standingsB = try await Self.hyzer(["standings", round, "--data", b, "--json"])
            #expect(standingsA.status == 0 && standingsA.stdout == standingsB.stdout)
            #expect(standingsB.stdout.contains("\"values\" : [\n        4,\n        5"), "\(standingsB.stdout)")

            // Clear failures.
            let nobody = try await Self.hyzer(["score", "--data", b, round, "Zed", "3", "4"])
            #expect(nobody.status != 0 && nobody.stderr.contains("nobody called \"Zed\""))
            let tooMany = try await Self.hyzer(["score", "--data", b, round, "Mike", "3", "11"])
            #expect(tooMany.status != 0 && tooMany.stderr.contains("between 1 and 10"))
            let garbled = try await Self.hyzer(["voice", "--data", b, round, "hmm okay"])
            #expect(garbled.status != 0 && garbled.stderr.contains("nothing usable"))

            // Server down: the score is saved, the command says so and succeeds.
            await group.server.stop()
            let offline = try await Self.hyzer(["score", "--data", b, round, "Nate", "3", "3"])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stdout.contains("saved locally; not synced yet"), "\(offline.stdout)")
            let failedSync = try await Self.hyzer(["sync", "--data", b])
            #expect(failedSync.status != 0 && failedSync.stderr.contains("records wait locally"), "\(failedSync.stderr)")
            try await group.restart()
        }
    }
}
