import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

struct PlayerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player", abstract: "Register players (they appear in the kiosk's round setup).",
        subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register a player. Prints the new player's id last.")
        @OptionGroup var data: DataOptions
        @Argument(help: "Display name.") var name: String
        @Option(name: .customLong("alias"), help: "What voice recognition may hear for this name (repeatable).")
        var aliases: [String] = []

        func run() async throws {
            let db = try data.open()
            let player: Player
            do { player = try Player(displayName: name, aliases: aliases) } catch { throw CommandFailure(error) }
            if try db.players().contains(where: { $0.displayName.caseInsensitiveCompare(player.displayName) == .orderedSame }) {
                throw CommandFailure(message: "a player named \(player.displayName) is already registered")
            }
            try db.savePlayer(player)
            print(
                "registered \(player.displayName)"
                    + (player.aliases.isEmpty ? "" : " (aliases: \(player.aliases.joined(separator: ", ")))"))
            print(player.id.uuidString)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List registered players.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            for player in try data.open().players() {
                print(
                    "\(player.id.uuidString)  \(player.displayName)"
                        + (player.aliases.isEmpty ? "" : "  [\(player.aliases.joined(separator: ", "))]"))
            }
        }
    }
}
