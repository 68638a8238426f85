import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import SQLiteFaults

/// `--data DIR`, shared by every command that touches the databases.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(HyzerPaths.Owner.device.dataOptionHelp))
    var data: String?

    var directory: URL { HyzerPaths.dataDirectory(explicit: data) }

    func open() throws -> HyzerDatabase {
        do {
            return try HyzerDatabase.open(dataDirectory: directory)
        } catch {
            // Not a usage error: no "Usage:" block, one line saying where and why.
            throw CommandFailure(message: StorageFault.cannotOpen("the databases", in: directory.path, error))
        }
    }
}

extension HyzerDatabase {
    /// The data directory of a store the CLI opened: always file-backed (`DataOptions.open`),
    /// so `directory` is never nil here.
    var files: URL { directory! }
}

/// Errors from the domain and store print as their own sentence and exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ error: any Error) { description = oneLine(error) }
    init(message: String) { description = message }
}

/// A command's `--json` answer: pretty, keys sorted, slashes as they are.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// What every command that records scores takes: `--data`, the round and `--no-sync`.
/// It opens the store and finds the round, and syncs after the writes, the same way for each.
struct ScoreWriteOptions: ParsableArguments {
    @OptionGroup var data: DataOptions
    @Argument(help: "Round id, or \"current\" for the newest active round.") var round: String
    @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

    func open() throws -> (HyzerDatabase, Round) {
        let db = try data.open()
        return (db, try DeviceLookup.round(round, in: db))
    }

    func finish(_ db: HyzerDatabase) async {
        await syncAfterLocalWrite(db, skip: noSync)
    }
}

/// A score's cell and value, as `hyzer score` and `hyzer resolve` take them.
struct CellScoreArguments: ParsableArguments {
    @Argument(help: "Participant id or name.") var participant: String
    @Argument(help: "Hole number.") var hole: Int
    @Argument(help: "Strokes (1–10).") var strokes: Int
}

/// One line a person can read for any runtime error (`StorageFault.oneLine`).
func oneLine(_ error: any Error) -> String {
    if let failure = error as? CommandFailure { return failure.description }
    return StorageFault.oneLine(for: error)
}
