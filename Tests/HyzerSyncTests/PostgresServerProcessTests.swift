import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import Testing

/// The real `hyzer-server` binary on PostgreSQL: the admin commands and `serve` take
/// `--database`, and a backup restored with the server running gives devices a new epoch.
@Suite struct PostgresServerProcessTests {
    static func run(_ arguments: [String]) async throws -> Binary.Result {
        try await Binary.run(executable: try ServerProcessTests.binary(), arguments)
    }

    @Test func theCommandsServeBackUpAndRestoreAPostgreSQLDatabase() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let database = ["--database", location.url]
        let created = try await Self.run(["group", "create", "League"] + database)
        #expect(created.status == 0, "\(created.stderr)")
        let admin = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(admin.hasPrefix("hza_"))
        let listed = try await Self.run(["group", "list"] + database)
        #expect(listed.stdout.contains("League"), "\(listed.stdout)\(listed.stderr)")
        // Issue 35: the group's reopen window, set by name, shown by the list; a bad one refused.
        let window = try await Self.run(["group", "set-reopen-window", "League", "48"] + database)
        #expect(window.status == 0, "\(window.stderr)")
        #expect(window.stdout.contains("League: a finished round can be reopened for 48 h"), "\(window.stdout)")
        #expect(try await Self.run(["group", "list"] + database).stdout.contains("reopen within 48 h"))
        let negative = try await Self.run(["group", "set-reopen-window"] + database + ["--", "League", "-1"])
        #expect(negative.status != 0)
        #expect(negative.stderr.contains("a reopen window is 0 to 8760 hours"), "\(negative.stderr)")

        let port = try freePort()
        let url = "http://127.0.0.1:\(port)"
        let log = temporaryDirectory("pg-serve").appendingPathExtension("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try await ChildProcess.start(
            try ServerProcessTests.binary(), ["serve", "--host", "127.0.0.1", "--port", "\(port)"] + database,
            output: .file(log))
        var health: HealthResponse?
        for _ in 0..<200 where health == nil {
            health = try? await SyncClient.health(server: url)
            if health == nil { try await Task.sleep(for: .milliseconds(25)) }
        }
        let first = try #require(health, "the server did not come up: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        let enrolled = try await SyncClient.enroll(server: url, groupToken: admin, deviceID: "phone-1", name: "Phone")
        let client = SyncClient(
            link: ServerLink(
                serverURL: url, groupID: enrolled.groupID, groupName: enrolled.groupName, deviceID: "phone-1",
                deviceName: "Phone",
                deviceToken: enrolled.deviceToken, enrolledAt: Date()))
        let course = try Course(name: "Pine Hollow", holeCount: 9)
        _ = try await client.push([.course(CourseRecord(course, version: UUID(), updatedAt: 100))])
        let backup = temporaryDirectory("pg-backup").appendingPathExtension("dump")
        defer { try? FileManager.default.removeItem(at: backup) }
        let backedUp = try await Self.run(["backup", "--to", backup.path] + database)
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        let renamed = try Course(id: course.id, name: "Pine Hollow (new tees)", pars: course.pars)
        _ = try await client.push([.course(CourseRecord(renamed, version: UUID(), updatedAt: 200))])
        #expect(try await client.pull(after: 0).records.count == 2)

        // Restored while the server runs: the server answers with the new epoch at once,
        // and the feed is the backup's.
        let restored = try await Self.run(["restore", "--from", backup.path] + database)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("new epoch"))
        var page = try await client.pull(after: 0)
        for _ in 0..<100 where page.epoch == first.epoch {
            try await Task.sleep(for: .milliseconds(50))
            page = try await client.pull(after: 0)
        }
        #expect(page.epoch != first.epoch)
        #expect(page.records.count == 1, "the rename pushed after the backup is gone until the device pushes it again")

        server.terminate()
        #expect(try await server.waitForExit().termination == .exited(0))

        let wrong = try await Self.run(["group", "list", "--database", "mysql://root@localhost/hyzer"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("postgres:// URL"), "\(wrong.stderr)")
        let unreachable = try await Self.run(["group", "list", "--database", "postgres://nobody@/nowhere?host=/nonexistent"])
        #expect(unreachable.status != 0)
        #expect(unreachable.stderr.contains("cannot use the PostgreSQL database"), "\(unreachable.stderr)")
    }
}
