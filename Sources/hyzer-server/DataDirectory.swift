import ArgumentParser
import Foundation
import HyzerKit
import HyzerServer
import HyzerSystem
import SQLiteFaults

/// Where the data is: `--data DIR` (SQLite, the default) or `--database postgres://…`.
struct DataDirectory: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(HyzerPaths.Owner.server.dataOptionHelp))
    var data: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database instead of SQLite in --data: postgres://USER[:PASSWORD]@HOST[:PORT]/DB, or over a Unix socket postgres://USER@/DB?host=/run/postgresql (default: the settings file's database).",
            valueName: "url"))
    var database: String?

    var url: URL { HyzerPaths.dataDirectory(explicit: data, for: .server) }

    /// `--data`, else the settings file's `data`, else the default.
    func url(file: ConfigFile?) -> URL {
        HyzerPaths.dataDirectory(explicit: data ?? file?.string("data"), for: .server)
    }

    /// `--database`, else the settings file's `database`; nil for SQLite.
    func location(file: ConfigFile? = nil) throws -> PostgresLocation? {
        guard let text = database ?? file?.string("database") else { return nil }
        do { return try PostgresLocation(url: text) } catch { throw ValidationError(error.description) }
    }

    /// Opens the storage these options name, with a message that says where it failed.
    func open(file: ConfigFile? = nil) async throws -> any ServerStorage {
        let location = try location(file: file)
        let directory = url(file: file)
        do {
            return try await openServerStorage(data: directory, database: location)
        } catch let error as StorageError {
            throw Fail(description: error.description)
        } catch {
            throw Fail(description: StorageFault.cannotOpen("the server database", in: directory.path, error))
        }
    }
}
