import ArgumentParser
import HyzerServer

/// An admin subcommand that works on the server's database: it names what it does with
/// the storage, and opening the storage (`--data` or `--database`) is written once, here.
protocol StorageCommand: AsyncParsableCommand {
    var data: DataDirectory { get }
    func run(on storage: any ServerStorage) async throws
}

extension StorageCommand {
    func run() async throws {
        let storage = try await data.open()
        do {
            try await run(on: storage)
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }
}
