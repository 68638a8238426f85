import ArgumentParser
import Foundation
import HyzerStore
import HyzerSync

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Push everything not yet on the group server and pull everything new, now.")

    @OptionGroup var data: DataOptions

    func run() async throws {
        let db = try data.open()
        guard let link = try ServerLink.load(from: db.files) else {
            throw CommandFailure(
                message:
                    "this device is not enrolled; run `hyzer device enroll --server URL --group-token T --name NAME --data \(db.files.path)`"
            )
        }
        let engine = SyncEngine(database: db, link: link)
        let report: SyncReport
        do {
            report = try await engine.syncNow()
        } catch {
            throw CommandFailure(
                message:
                    "sync with \(link.serverURL) failed: \(error) (\(try await db.read(.pendingSyncCount)) records wait locally)")
        }
        if report.epochChanged {
            print("the server's database is new or restored (new epoch): re-pulled from zero and re-pushed")
        }
        print("pushed: \(report.created) created, \(report.duplicates) already there, \(report.rejected.count) rejected")
        print(
            "pulled: \(report.pulled) records, \(report.applied) applied (\(report.eventsInserted) scores); cursor \(report.cursor) of \(report.head)"
        )
        for line in report.rejected { print("  rejected: \(line)") }
        for line in report.pullRejected { print("  could not store: \(line)") }
        if report.pending > 0 { print("still pending: \(report.pending) (rejected records stay until changed)") }
        if !report.rejected.isEmpty { throw ExitCode(3) }
    }
}
