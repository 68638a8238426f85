import Foundation
import GRDB
import Logging

/// The epoch, and the state file that detects a database restored from a backup.
extension SQLiteStorage {
    static let stateFileName = "hyzer-server.state"

    /// A new database gets a fresh epoch at creation. A database that is *older* than the
    /// one this directory last served (restored from a backup), or one whose lineage the
    /// state file does not know, gets a new one too: devices then re-pull from zero and
    /// re-push whatever the server no longer has.
    static func decideEpoch(_ pool: DatabasePool, directory: URL, logger: Logger) throws -> (epoch: String, head: Int64) {
        let (storedEpoch, head) = try pool.read { db in
            (try ServerMetaRow.fetchOne(db, key: ServerMetaRow.epochKey)?.value ?? "", try ChangeRow.head(db))
        }
        let state = readState(directory)
        let reason: String? =
            switch state {
            case nil where head > 0: "no state file for a non-empty database"
            case let s? where s.epoch != storedEpoch: "the database is not the one this directory last served"
            case let s? where head < s.head:
                "the database is behind what was served (seq \(head) < \(s.head)): restored from a backup"
            default: nil
            }
        guard let reason else { return (storedEpoch, head) }
        let epoch = try rotateEpoch(pool)
        logger.warning("new epoch", metadata: ["epoch": "\(epoch)", "reason": "\(reason)"])
        return (epoch, head)
    }

    /// Stores a fresh epoch. Synchronous: only opening a database and the restore command
    /// (server stopped) call it, never a request. `save` rather than GRDB's `upsert`: the
    /// latter reads back the rowid, which a WITHOUT ROWID table such as `server_meta` lacks.
    static func rotateEpoch(_ pool: DatabasePool) throws -> String {
        let epoch = UUID().uuidString.lowercased()
        try pool.write { db in try ServerMetaRow(key: ServerMetaRow.epochKey, value: epoch).save(db) }
        return epoch
    }

    // MARK: State file

    struct State: Codable {
        var epoch: String
        var head: Int64
    }

    static func readState(_ directory: URL) -> State? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(stateFileName).path) else {
            return nil
        }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    static func writeState(_ directory: URL, epoch: String, head: Int64) throws {
        let data = try JSONEncoder().encode(State(epoch: epoch, head: head))
        try data.write(to: directory.appendingPathComponent(stateFileName), options: .atomic)
    }

    /// Remembers the highest seq served, so a later start can tell a restored (older)
    /// database. Called after each push's commit, outside GRDB's writer (inside its commit
    /// callback the file write would hold up every other push). No fsync of its own: it is
    /// a guard, not the data (a file a little behind only weakens the check); the restore
    /// command rotates the epoch explicitly anyway.
    func noteHead(_ head: Int64) {
        let advanced = headMark.withLock { mark -> Bool in
            guard head > mark else { return false }
            mark = head
            return true
        }
        guard advanced else { return }
        do { try Self.writeState(directory, epoch: epoch, head: head) } catch {
            logger.error("cannot write the state file", metadata: ["error": "\(error)"])
        }
    }
}
