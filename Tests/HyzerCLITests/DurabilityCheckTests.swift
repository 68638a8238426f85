import Foundation
import HyzerHarness
import Testing

/// `hyzer durability-check`, the writer the appliance test cuts the power under: every id it
/// prints is a score event in the database, written through the kiosk's own named write.
@Suite struct DurabilityCheckTests {
    @Test func everyAcknowledgedIdIsInTheDatabase() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-durability-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Binary.run("hyzer", ["init", "--data", dir.path]).status == 0)
        let run = try await Binary.run("hyzer", ["durability-check", "--data", dir.path, "--scores", "12"])
        #expect(run.status == 0, "\(run.stderr)")
        let acknowledged = run.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("acknowledged ") ? String(line.dropFirst("acknowledged ".count)) : nil
        }
        #expect(acknowledged.count == 12)
        let stored = try await Binary.run(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [dir.appendingPathComponent("hyzer.sqlite").path, "SELECT lower(hex(id)) FROM score_events"])
        let present = Set(stored.stdout.split(separator: "\n").map(String.init))
        #expect(Set(acknowledged).isSubset(of: present), "acknowledged but not stored: \(Set(acknowledged).subtracting(present))")
        let bad = try await Binary.run("hyzer", ["durability-check", "--data", dir.path, "--scores", "0"])
        #expect(bad.status != 0 && bad.stderr.contains("--scores takes 1 or more"))
    }
}
