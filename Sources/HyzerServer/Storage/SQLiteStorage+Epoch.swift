import Foundation
import GRDB
import Logging
import Synchronization

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

    /// Writes the state file whole (a new file, renamed into place): at open and restore.
    static func writeState(_ directory: URL, epoch: String, head: Int64) throws {
        try Data(stateBytes(epoch: epoch, head: head)).write(
            to: directory.appendingPathComponent(stateFileName), options: .atomic)
    }

    /// The state as JSON padded with spaces to one fixed length, so each later head can be
    /// written over it in place: a newer state is never shorter than the bytes it covers.
    static func stateBytes(epoch: String, head: Int64) -> [UInt8] {
        let json = Array(#"{"epoch":"\#(epoch)","head":\#(head)}"#.utf8)
        return json + [UInt8](repeating: UInt8(ascii: " "), count: max(0, stateFileLength - 1 - json.count)) + [0x0A]
    }

    /// Room for a 36-character epoch and any seq.
    static let stateFileLength = 96

    /// Remembers the highest seq served, so a later start can tell a restored (older)
    /// database. Called after each push's commit, outside GRDB's writer (inside its commit
    /// callback the file write would hold up every other push). One `pwrite` over the open
    /// file, under the lock that orders the heads: a whole-file atomic write (temporary
    /// file, fsync, rename) was a tenth of a push's CPU and an fsync of its own. No fsync:
    /// it is a guard, not the data (a file a little behind only weakens the check, and a
    /// torn one reads as no state file, which gives a new epoch); the restore command
    /// rotates the epoch explicitly anyway.
    func noteHead(_ head: Int64) {
        let failure = stateMark.withLock { mark -> Int32? in
            guard head > mark.head, mark.file >= 0 else { return nil }
            mark.head = head
            let bytes = Self.stateBytes(epoch: epoch, head: head)
            let written = bytes.withUnsafeBytes { pwrite(mark.file, $0.baseAddress, $0.count, 0) }
            return written == bytes.count ? nil : errno
        }
        if let failure {
            logger.error("cannot write the state file", metadata: ["error": "\(String(cString: strerror(failure)))"])
        }
    }
}
