import ArgumentParser
import Foundation
import HyzerServer

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Replace the database with a backup (SQLite: server stopped). Gives it a new epoch: devices re-pull and re-push.")
    @OptionGroup var data: DataDirectory
    @Option(help: "Backup file to restore.") var from: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from) else { throw Fail(description: "no backup file at \(from)") }
        let backup = URL(fileURLWithPath: from)
        let epoch: String
        if let location = try data.location() {
            // PostgreSQL: the instances may keep running; they hear the new epoch.
            do { epoch = try await PostgresStorage.restore(backup: backup, into: location) } catch let error as StorageError {
                throw Fail(description: error.description)
            }
        } else {
            epoch = try SQLiteStorage.restore(backup: backup, into: data.url)
        }
        print("restored \(from); new epoch \(epoch)")
    }
}
