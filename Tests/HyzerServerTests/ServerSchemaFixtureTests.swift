import Foundation
import GRDB
import HyzerKit
import Testing

@testable import HyzerServer

/// Shipped migrations are never edited: a server in the field has already applied them,
/// so a database migrated today must come out exactly as one migrated by the shipped
/// code. The expected text (Tests/Fixtures/server-schema.txt) is `sqlite_master` as the migrations of commit 7d23aad left
/// it, captured before the migrations' SQL was reorganised; a new migration only appends
/// to it ("v3 server: device authorizations" added the last three entries, the text before
/// them unchanged; "v4 server: view tokens" the two after them, "v5 server: invites" two more, "v6 server: summary links" two more, "v7 server: name requests" two more).
/// Negative control: writing "append only" for "append-only" in the trigger messages of
/// "v2 server: append-only feed" made this test fail (checked once, by hand).
@Suite struct ServerSchemaFixtureTests {
    @Test func serverSchemaIsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue)
        let dump = try queue.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT type || ' ' || name || ' ' || tbl_name || char(10) || ifnull(sql, '-') FROM sqlite_master ORDER BY rowid"
            ).joined(separator: "\n\n") + "\n"
        }
        #expect(try dump == Self.shipped)
    }

    /// The dump captured from the shipped migrations, in Tests/Fixtures.
    static var shipped: String {
        get throws {
            let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: tests.appendingPathComponent("Fixtures/server-schema.txt"), encoding: .utf8)
        }
    }
}
