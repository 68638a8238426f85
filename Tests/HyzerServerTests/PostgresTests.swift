import Foundation
import HyzerHarness
import HyzerKit
import HyzerSyncProtocol
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import HyzerServer

/// What only the PostgreSQL backend has: its schema's own guards, several instances over
/// one database, pg_dump/pg_restore. (The rules both backends keep are the storage tests
/// that take a `Backend`.) Every test runs on the tests' own throwaway PostgreSQL server.
@Suite struct PostgresTests {
    @Test func databaseURLsAreReadAsLibpqWritesThem() throws {
        let socket = try PostgresLocation(url: "postgres://hyzer@/league?host=/run/postgresql")
        #expect(socket.socketDirectory == "/run/postgresql" && socket.host == nil && socket.database == "league")
        #expect(socket.user == "hyzer" && socket.port == 5432)
        let tcp = try PostgresLocation(url: "postgresql://app:s3cret@db.example.org:6432/hyzer?sslmode=require")
        #expect(tcp.host == "db.example.org" && tcp.port == 6432 && tcp.password == "s3cret" && tcp.tls == .require)
        #expect(!tcp.description.contains("s3cret"), "a password never reaches a log")
        for (bad, says) in [
            ("mysql://a@b/c", "postgres:// URL"), ("postgres://a@b/", "no database"), ("postgres://b/c", "no user"),
            ("postgres://a@/c", "no host"), ("postgres://a@b/c?sslmode=maybe", "sslmode"),
        ] {
            #expect(throws: StorageError.self) { try PostgresLocation(url: bad) }
            do { _ = try PostgresLocation(url: bad) } catch { #expect(error.description.contains(says), "\(bad): \(error)") }
        }
    }

    /// The feed and the score events are append-only in the database itself. Negative
    /// control: with the trigger dropped, the same UPDATE goes through (so the refusal
    /// above came from the trigger, not from a typo in the statement).
    @Test func theDatabaseRefusesToRewriteTheFeed() async throws {
        let h = try await Harness.make(.postgres)
        let location = try #require((h.storage as? PostgresStorage)?.location)
        let g = try await h.group()
        let f = try Fixture()
        _ = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.scoreEvent(f.event())])
        for statement in [
            "UPDATE changes SET pushed_by = 'someone else'", "DELETE FROM changes", "TRUNCATE changes CASCADE",
            "UPDATE events SET hole = 2", "DELETE FROM events", "TRUNCATE events",
        ] {
            let result = try await ThrowawayPostgres.shared.execute(statement, in: location)
            #expect(result.status != 0, "\(statement) was allowed")
            #expect(result.stderr.contains("append-only"), "\(statement): \(result.stderr)")
        }
        #expect(try await h.storage.pull(groupID: g.groupID, after: 0, limit: 10).records.count == 3)

        let dropped = try await ThrowawayPostgres.shared.execute(
            "DROP TRIGGER changes_append_only_update ON changes", in: location)
        #expect(dropped.status == 0, "\(dropped.stderr)")
        let rewritten = try await ThrowawayPostgres.shared.execute("UPDATE changes SET pushed_by = 'someone else'", in: location)
        #expect(rewritten.status == 0, "without the trigger the rewrite goes through: \(rewritten.stderr)")
    }

    /// A link for a group that is not there is "not found" (the foreign key answers), and
    /// nothing is stored.
    @Test func aLinkForAGroupThatIsNotThereIsNotFound() async throws {
        let h = try await Harness.make(.postgres)
        await #expect(throws: StorageError.notFound("no group nope")) { try await h.storage.createViewToken(groupID: "nope") }
        await #expect(throws: StorageError.notFound("no group nope")) {
            try await h.storage.createSummaryLink(groupID: "nope", roundID: UUID())
        }
        let location = try #require((h.storage as? PostgresStorage)?.location)
        let rows = try await ThrowawayPostgres.shared.execute(
            "SELECT (SELECT count(*) FROM view_tokens) + (SELECT count(*) FROM summary_links)", in: location)
        #expect(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// Migrations are named, applied once, and recorded; reopening keeps the epoch.
    @Test func migrationsAreNamedAndAppliedOnce() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let first = try await PostgresStorage.open(location)
        let epoch = first.epoch
        await first.close()
        let again = try await PostgresStorage.open(location)
        #expect(again.epoch == epoch)
        await again.close()
        // Applied in one transaction, so with one `applied_at`: the row order breaks the tie.
        let names = try await ThrowawayPostgres.shared.execute(
            "SELECT name FROM hyzer_migrations ORDER BY applied_at, ctid", in: location)
        #expect(names.stdout.split(separator: "\n").map(String.init) == PostgresSchema.migrations.map(\.name))
        #expect(Set(PostgresSchema.migrations.map(\.name)).count == PostgresSchema.migrations.count)
    }

    /// A database a server before player claims made (the first migration alone, recorded
    /// as it recorded it, with its rows) gains `devices.player_id` and its index when an
    /// instance opens it, rows intact and claiming nobody; and its phones can claim players
    /// from then on, one phone a player.
    @Test func aDatabaseOfTheFirstMigrationGainsPlayerClaims() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let first = try #require(PostgresSchema.migrations.first)
        #expect(first.name == "v1 server")
        let made = try await ThrowawayPostgres.shared.execute(
            """
            CREATE TABLE hyzer_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
            \(first.sql)
            INSERT INTO server_meta (key, value) VALUES ('epoch', 'e-before'), ('created_at', '2026-01-01T00:00:00Z');
            INSERT INTO hyzer_migrations (name) VALUES ('v1 server');
            INSERT INTO groups (id, name, created_at) VALUES ('g1', 'League', 1);
            INSERT INTO devices (group_id, device_id, name, enrolled_at, revoked_at)
                VALUES ('g1', 'kiosk', 'Kiosk', 1, NULL), ('g1', 'old-phone', 'Old phone', 1.5, 2);
            """, in: location)
        #expect(made.status == 0, "\(made.stderr)")
        let before = try await ThrowawayPostgres.shared.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'devices' AND column_name = 'player_id'",
            in: location)
        #expect(before.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")

        let storage = try await PostgresStorage.open(location)
        #expect(storage.epoch == "e-before", "the data stays the same data")
        let applied = try await ThrowawayPostgres.shared.execute("SELECT name FROM hyzer_migrations ORDER BY name", in: location)
        #expect(
            applied.stdout.split(separator: "\n").map(String.init) == [
                "v1 server", "v7 server: player claims", "v8 server: name requests", "v9 server: group settings",
            ])
        let index = try await ThrowawayPostgres.shared.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'devices_one_per_player'", in: location)
        #expect(
            index.stdout.contains("UNIQUE INDEX")
                && index.stdout.contains("WHERE ((revoked_at IS NULL) AND (player_id IS NOT NULL))"), "\(index.stdout)")
        let devices = try await storage.devices(groupID: "g1")
        #expect(devices.map(\.deviceID) == ["kiosk", "old-phone"] && devices.map(\.revokedAt) == [nil, 2])
        #expect(devices.allSatisfy { $0.playerID == nil && $0.playerName == nil })
        let nate = PlayerRecord(id: UUID(), version: UUID(), updatedAt: 1, displayName: "Nate", aliases: [])
        _ = try await storage.push(groupID: "g1", deviceID: "kiosk", records: [.player(nate)])
        let phone = try await storage.redeemInvite(
            code: try await storage.createInvite(groupID: "g1", createdBy: "kiosk", lifetime: 600).code, deviceID: "phone",
            name: "Nate's phone", playerID: nate.id)
        #expect(phone.playerID == nate.id)
        await #expect(throws: PlayerClaimError.claimed(player: "Nate", by: "Nate's phone")) {
            try await storage.redeemInvite(
                code: try await storage.createInvite(groupID: "g1", createdBy: "kiosk", lifetime: 600).code,
                deviceID: "phone-2", name: "Eve's phone", playerID: nate.id)
        }
        await storage.close()
    }

    /// A restore puts the backup's data back and gives a new epoch, which a running
    /// instance hears at once (devices then re-pull and re-push what the backup lacks).
    @Test func aRestoreBringsTheBackupBackUnderANewEpoch() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let serving = try await PostgresStorage.open(location)
        let hub = PokeHub()
        let listening = Task { try await PostgresFeedListener(storage: serving, hub: hub, logger: Logger(label: "test")).run() }
        defer { listening.cancel() }
        let (group, _) = try await serving.createGroup(name: "League")
        let token = try await serving.enroll(groupID: group.id, deviceID: "phone", name: "Phone")
        let phone = DeviceClaim(token: token, device: "phone")
        let f = try Fixture()
        _ = try await serving.push(as: phone, records: f.setupRecords)
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-pg-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: backup) }
        try await serving.backup(to: backup)
        _ = try await serving.push(groupID: group.id, deviceID: "phone", records: [.scoreEvent(f.event())])
        #expect(try await serving.head(groupID: group.id) == 3)

        let before = serving.epoch
        let epoch = try await PostgresStorage.restore(backup: backup, into: location)
        #expect(epoch != before)
        #expect(try await serving.head(groupID: group.id) == 2, "the score pushed after the backup is gone")
        var heard = false
        for _ in 0..<100 where !heard {
            heard = serving.epoch == epoch
            if !heard { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(heard, "the running instance still answers with the old epoch")
        #expect(try await serving.pull(groupID: group.id, after: 0, limit: 10).epoch == epoch)
        // The statements the instance prepared on its connections before the restore
        // recreated the tables still push and pull.
        let again = try await serving.push(as: phone, records: [.scoreEvent(f.event(hole: 2))])
        #expect(again.response.results.map(\.status) == [.created])
        #expect(try await serving.pull(as: phone, after: 0, limit: 10).records.count == 3)
        await serving.close()
    }

    /// A file that is not a backup is refused with pg_restore's own words and its exit
    /// status, and the database keeps what it had (the restore is one transaction).
    @Test func aFileThatIsNotABackupIsRefusedAndNothingIsLost() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let storage = try await PostgresStorage.open(location)
        let (group, _) = try await storage.createGroup(name: "League")
        let f = try Fixture()
        _ = try await storage.push(groupID: group.id, deviceID: "phone", records: f.setupRecords)
        let notABackup = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-pg-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: notABackup) }
        try Data("PlayerName,CourseName\n".utf8).write(to: notABackup)
        do {
            _ = try await PostgresStorage.restore(backup: notABackup, into: location)
            Issue.record("a CSV file was restored as a backup")
        } catch {
            #expect("\(error)".contains("pg_restore failed (exit 1): pg_restore: error:"), "\(error)")
        }
        #expect(try await storage.head(groupID: group.id) == 2)
        await storage.close()
    }

    /// A restore keeps what was revoked since the backup (SQLite's rule). Negative
    /// control: the same backup restored into a database that never revoked anything still
    /// grants the token.
    @Test func aRestoreKeepsTheRevocationsMadeSinceTheBackup() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let storage = try await PostgresStorage.open(location)
        let (group, _) = try await storage.createGroup(name: "League")
        let stolen = try await storage.enroll(groupID: group.id, deviceID: "stolen", name: "Phone")
        let kept = try await storage.enroll(groupID: group.id, deviceID: "kept", name: "Kiosk")
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-pg-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: backup) }
        try await storage.backup(to: backup)
        try await storage.revoke(groupID: group.id, deviceID: "stolen")
        _ = try await PostgresStorage.restore(backup: backup, into: location)
        #expect(try await storage.authenticate(token: stolen) == nil)
        #expect(try await storage.authenticate(token: kept)?.deviceID == "kept")
        await storage.close()

        let elsewhere = try await ThrowawayPostgres.shared.freshDatabase()
        _ = try await PostgresStorage.restore(backup: backup, into: elsewhere)
        let copy = try await PostgresStorage.open(elsewhere)
        #expect(try await copy.authenticate(token: stolen)?.deviceID == "stolen", "the backup itself grants the token")
        await copy.close()
    }

    /// A push through one instance pokes the live sockets of another.
    @Test func aPushThroughOneInstancePokesTheOthers() async throws {
        let location = try await ThrowawayPostgres.shared.freshDatabase()
        let a = try await PostgresStorage.open(location)
        let b = try await PostgresStorage.open(location)
        let hubB = PokeHub()
        let listening = Task { try await PostgresFeedListener(storage: b, hub: hubB, logger: Logger(label: "test")).run() }
        defer { listening.cancel() }
        let (group, _) = try await a.createGroup(name: "League")
        _ = try await a.enroll(groupID: group.id, deviceID: "phone", name: "Phone")
        let (_, pokes) = await hubB.subscribe(groupID: group.id)
        let f = try Fixture()
        // The listener may still be connecting: push until B hears one (each push moves the head).
        var heard: Poke?
        for attempt in 0..<20 where heard == nil {
            let pushed = try await a.push(
                groupID: group.id, deviceID: "phone",
                records: attempt == 0 ? f.setupRecords : [.scoreEvent(f.event(hole: attempt))])
            heard = await withTaskGroup(of: Poke?.self) { race in
                race.addTask {
                    for await poke in pokes where poke.head >= pushed.head { return poke }
                    return nil
                }
                race.addTask {
                    try? await Task.sleep(for: .milliseconds(500))
                    return nil
                }
                let first = await race.next() ?? nil
                race.cancelAll()
                return first
            }
        }
        #expect(heard?.epoch == a.epoch)
        await a.close()
        await b.close()
    }

    /// The pull cursor never skips a record: a push that drew a lower seq through one
    /// instance but commits late is still pulled, because the group's pushes are serialised
    /// (the later push, through another instance, waits for the lock, so nothing above the
    /// late seq is visible before it). (One instance commits its pushes one transaction
    /// after another: the later push would wait in its queue.)
    ///
    /// Negative control: with the serialisation off, the same interleaving makes the puller
    /// move past the late record, and it is never pulled.
    @Test func thePullCursorNeverSkipsARecordThatCommitsLate() async throws {
        #expect(try await skippedRecords(serialised: true).isEmpty)
        #expect(try await skippedRecords(serialised: false).count == 1, "the control did not reproduce the skip")
    }

    /// Pushes a slow event (held open just before its commit) and a fast one, pulls while
    /// the slow one is open, then pulls the rest; returns the events never pulled.
    private func skippedRecords(serialised: Bool) async throws -> Set<UUID> {
        let h = try await Harness.make(.postgres)
        let storage = try #require(h.storage as? PostgresStorage)
        let other = try await PostgresStorage.open(storage.location)
        let g = try await h.group()
        let f = try Fixture()
        _ = try await storage.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords)
        var cursor = try await storage.pull(groupID: g.groupID, after: 0, limit: 100).next
        let slow = f.event(0, hole: 1)
        let fast = f.event(1, hole: 1)
        let (inWindow, enteredWindow) = AsyncStream<Void>.makeStream()
        let (release, released) = AsyncStream<Void>.makeStream()
        other.pushSeams.withLock { $0.serialisesPushes = serialised }
        storage.pushSeams.withLock {
            $0.serialisesPushes = serialised
            $0.beforeCommit = { records in
                guard records.contains(where: { $0.id == slow.id }) else { return }
                enteredWindow.yield()
                for await _ in release { break }
            }
        }
        let slowPush = Task { try await storage.push(groupID: g.groupID, deviceID: g.device, records: [.scoreEvent(slow)]) }
        for await _ in inWindow { break }  // the slow push has its seq, not yet committed
        let fastPush = Task { try await other.push(groupID: g.groupID, deviceID: g.device, records: [.scoreEvent(fast)]) }
        if serialised {
            try await Task.sleep(for: .seconds(1))  // it waits for the lock: nothing to await
        } else {
            _ = try await fastPush.value
        }
        var pulled: Set<UUID> = []
        let during = try await storage.pull(groupID: g.groupID, after: cursor, limit: 100)
        pulled.formUnion(during.records.map(\.record.id))
        cursor = during.next
        released.yield()
        released.finish()
        _ = try await slowPush.value
        _ = try await fastPush.value
        storage.pushSeams.withLock { $0 = PostgresStorage.PushSeams() }
        await other.close()
        let after = try await storage.pull(groupID: g.groupID, after: cursor, limit: 100)
        pulled.formUnion(after.records.map(\.record.id))
        return Set([slow.id, fast.id]).subtracting(pulled)
    }
}
