import Foundation
import GRDB
import HyzerKit
import HyzerTestSupport
import Testing

@testable import HyzerServer

/// Shipped migrations are never edited: a server in the field has already applied them,
/// so a database migrated today must come out exactly as one migrated by the shipped
/// code. The expected text (Tests/Fixtures/server-schema.txt) is `sqlite_master` as the migrations of commit 7d23aad left
/// it, captured before the migrations' SQL was reorganised; a new migration only appends
/// to it ("v3 server: device authorizations" added the last three entries, the text before
/// them unchanged; "v4 server: view tokens" the two after them, "v5 server: invites" two more, "v6 server: summary links" two more).
/// From "v7 server: player claims" on, each schema has a fixture of its own, as the
/// device's do (an ALTER TABLE rewrites the table's entry in place, so a later schema is
/// no longer the earlier one with entries appended): server-schema.txt stays the schema
/// through v6, which every server before claims has.
/// Negative control: writing "append only" for "append-only" in the trigger messages of
/// "v2 server: append-only feed" made this test fail (checked once, by hand).
@Suite struct ServerSchemaFixtureTests {
    @Test func serverSchemaIsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue, upTo: "v6 server: summary links")
        #expect(try Self.dump(queue) == Self.shipped())
    }

    /// And after v7 (issue 32: the player a device plays as), captured when v7 was written:
    /// the `player_id` column at the end of `devices`, and its partial unique index.
    @Test func serverSchemaAfterV7IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue, upTo: "v7 server: player claims")
        #expect(try Self.dump(queue) == Self.shipped("server-v7"))
    }

    /// And after v8 (issue 32: names typed on a phone): v7's entries unchanged, then the
    /// `name_requests` table and its index.
    @Test func serverSchemaAfterV8IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue, upTo: "v8 server: name requests")
        #expect(try Self.dump(queue) == Self.shipped("server-v8"))
    }

    /// And after v9 (issue 35: a group's reopen window): the `reopen_window` column at the
    /// end of `groups`.
    @Test func serverSchemaAfterV9IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try ServerSchema.migrator(clock: ManualClock()).migrate(queue)
        #expect(try Self.dump(queue) == Self.shipped("server-v9"))
    }

    /// One entry per schema object, in creation order: type, name, table, then its SQL
    /// exactly as SQLite stored it.
    static func dump(_ writer: some DatabaseWriter) throws -> String {
        try writer.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT type || ' ' || name || ' ' || tbl_name || char(10) || ifnull(sql, '-') FROM sqlite_master ORDER BY rowid"
            ).joined(separator: "\n\n") + "\n"
        }
    }

    /// A dump captured from the shipped migrations, in Tests/Fixtures.
    static func shipped(_ name: String = "server") throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/\(name)-schema.txt"), encoding: .utf8)
    }
}
