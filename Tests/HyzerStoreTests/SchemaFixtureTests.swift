import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerStore

/// Shipped migrations are never edited: a device in the field has already applied them,
/// so a store migrated today must come out exactly as one migrated by the shipped code.
/// The expected text (Tests/Fixtures/*-schema.txt) is `sqlite_master` as the migrations of commit 7d23aad left
/// it, captured before the migrations' SQL was reorganised; any change to what a
/// migration does (a trigger's body, a name, a column, an index, the order) shows here.
/// Negative control: changing "never deleted" to "not deleted" in a trigger message of
/// "v1 score events" made `domainSchemaIsTheShippedOne` fail (checked once, by hand).
@Suite struct SchemaFixtureTests {
    @Test func domainSchemaIsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v4 scored rounds and history index")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain"))
    }

    /// The same after v5 (issue 14: course tombstones, 36 holes, round pars), captured
    /// when v5 was written; from now on v5 is shipped too.
    @Test func domainSchemaAfterV5IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v5 course tombstones, wider courses and round pars")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v5"))
    }

    /// And after v6 (issue 14: the entering device's name on each score).
    @Test func domainSchemaAfterV6IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v6 score event device names")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v6"))
    }

    /// And after v7 (issue 35: undo), captured when v7 was written.
    @Test func domainSchemaAfterV7IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v7 undo: generations, removals, corrections and who did them")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v7"))
    }

    /// And after v8 (issue 35: retractions, the undo toast's), captured when v8 was written.
    @Test func domainSchemaAfterV8IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v8 retractions and start holes")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v8"))
    }

    /// And after v9 (issue 36: league nights, and `sync_records` made again to take them),
    /// captured when v9 was written.
    @Test func domainSchemaAfterV9IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v9 league nights")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v9"))
    }

    /// And after v10 (issue 37: seasons, and `sync_records` made again to take them),
    /// captured when v10 was written.
    @Test func domainSchemaAfterV10IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v10 seasons")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v10"))
    }

    /// And after v11 (issue 37: a league night ranked by net), captured when v11 was written.
    @Test func domainSchemaAfterV11IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v11 net league nights")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v11"))
    }

    /// And after v12 (issue 38: how a score was entered), captured when v12 was written.
    @Test func domainSchemaAfterV12IsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue)
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v12"))
    }

    @Test func operationalSchemaIsTheShippedOne() throws {
        let queue = try DatabaseQueue()
        try Schema.operationalMigrator.migrate(queue)
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("operational"))
    }
}

enum SchemaDump {
    /// One line per schema object, in creation order: type, name, table, then its SQL
    /// exactly as SQLite stored it.
    static func of(_ writer: some DatabaseWriter) throws -> String {
        try writer.read { db in
            try String.fetchAll(
                db,
                sql:
                    "SELECT type || ' ' || name || ' ' || tbl_name || char(10) || ifnull(sql, '-') FROM sqlite_master ORDER BY rowid"
            ).joined(separator: "\n\n") + "\n"
        }
    }

    /// A dump captured from the shipped migrations, in Tests/Fixtures.
    static func shipped(_ name: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/\(name)-schema.txt"), encoding: .utf8)
    }
}
