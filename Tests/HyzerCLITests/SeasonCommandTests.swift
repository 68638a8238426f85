import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// Issue 37 item 1 from the command line: `hyzer season add` sets up a season (a synced
/// record), `list` shows it, `standings NAME` ranks by its own range and rule (the same
/// table as the range and rule given by hand), `delete` takes it off, and a wrong name or
/// two rules say what is wrong.
@Suite struct SeasonCommandTests {
    @Test func aSeasonIsSetUpListedRankedAndDeleted() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-season-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await UDiscCommandTests.hyzer(args, dir)
        }
        let file = repositoryRoot.appendingPathComponent("Tests/Fixtures/udisc/newer.csv").path
        _ = try await hyzer(["import", "udisc", file, "--time-zone", "UTC", "--no-sync"])

        let add = try await hyzer([
            "season", "add", "Long run", "--from", "2019-01-01", "--to", "2026-12-31", "--best", "2", "--no-sync",
        ])
        #expect(add.status == 0 && add.stdout.contains("Set up Long run: 2019-01-01 to 2026-12-31, best 2 rounds"), "\(add)")
        let change = try await hyzer(["season", "add", "long RUN", "--from", "2019-01-01", "--to", "2026-12-31", "--no-sync"])
        #expect(change.stdout.contains("Changed long RUN"), "\(change)")
        let list = try await hyzer(["season", "list"])
        #expect(list.stdout == "long RUN: 2019-01-01 to 2026-12-31, points by place (10-8-6-5-4-3-2-1)\n", "\(list)")

        let byName = try await hyzer(["season", "standings", "long run", "--json"])
        let byHand = try await hyzer(
            ["season", "standings", "--name", "long RUN", "--from", "2019-01-01", "--to", "2026-12-31", "--json"])
        #expect(byName.status == 0 && byName.stdout == byHand.stdout, "\(byName) \(byHand)")
        #expect(byName.stdout.contains("\"season\" : \"long RUN\""))

        let unknown = try await hyzer(["season", "standings", "Winter"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no season is called Winter (there are: long RUN)"))
        let both = try await hyzer(["season", "standings", "long run", "--best", "3"])
        #expect(both.status != 0 && both.stderr.contains("give either, not both"), "\(both)")
        let twoRules = try await hyzer(["season", "add", "X", "--best", "2", "--average", "3"])
        #expect(twoRules.status != 0 && twoRules.stderr.contains("give one rule"), "\(twoRules)")

        let delete = try await hyzer(["season", "delete", "Long Run", "--no-sync"])
        #expect(delete.status == 0 && delete.stdout.contains("Deleted long RUN"))
        #expect(try await hyzer(["season", "list"]).stdout.hasPrefix("no seasons yet"))
    }
}
