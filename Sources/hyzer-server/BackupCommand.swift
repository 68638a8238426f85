import ArgumentParser
import Foundation
import HyzerServer

struct Backup: StorageCommand {
    static let configuration = CommandConfiguration(abstract: "Write a consistent copy of the database (safe while serving).")
    @OptionGroup var data: DataDirectory
    @Option(help: "Backup file to write.") var to: String

    func run(on storage: any ServerStorage) async throws {
        try await storage.backup(to: URL(fileURLWithPath: to))
        print("backed up to \(to)")
    }
}
