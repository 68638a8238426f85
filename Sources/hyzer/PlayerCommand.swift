import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

struct PlayerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player", abstract: "Register players (they appear in the kiosk's round setup).",
        subcommands: [Add.self, List.self, Rename.self, Aliases.self, Remove.self, Merge.self])

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
            let registered = try await db.read(.players)
            if registered.contains(where: { $0.displayName.caseInsensitiveCompare(player.displayName) == .orderedSame }) {
                throw CommandFailure(message: "a player named \(player.displayName) is already registered")
            }
            try await db.write(.savePlayer(player))
            print(
                "registered \(player.displayName)"
                    + (player.aliases.isEmpty ? "" : " (aliases: \(player.aliases.joined(separator: ", ")))"))
            print(player.id.uuidString)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List registered players.",
            discussion: """
                With --json: an array of {"id", "name", "aliases"}, in the kiosk's order.
                With --all: removed and merged players too, with {"removed", "mergedInto", "action"} in JSON.
                """)
        @OptionGroup var data: DataOptions
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "Include players removed from the roster or merged into another.") var all = false

        struct Line: Encodable {
            var id: UUID
            var name: String
            var aliases: [String]
            var removed: Bool?
            var mergedInto: UUID?
            var action: ActionLine?
        }

        func run() async throws {
            let db = try data.open()
            let identities: [PlayerIdentity] =
                all ? try await db.read(.allPlayers) : try await db.read(.players).map { PlayerIdentity(player: $0) }
            if json {
                try printJSON(
                    identities.map {
                        Line(
                            id: $0.player.id, name: $0.player.displayName, aliases: $0.player.aliases,
                            removed: all ? $0.retirement != nil : nil, mergedInto: $0.retirement?.mergedInto,
                            action: $0.retirement?.action.map(ActionLine.init))
                    })
                return
            }
            let names = Dictionary(identities.map { ($0.player.id, $0.player.displayName) }, uniquingKeysWith: { a, _ in a })
            for identity in identities {
                let player = identity.player
                var line =
                    "\(player.id.uuidString)  \(player.displayName)"
                    + (player.aliases.isEmpty ? "" : "  [\(player.aliases.joined(separator: ", "))]")
                if let retirement = identity.retirement {
                    line +=
                        retirement.mergedInto.map { "  (merged into \(names[$0] ?? $0.uuidString))" } ?? "  (removed)"
                }
                print(line)
            }
        }
    }

    /// Issue 38: what voice may hear for a player is set after the fact too ("S-Dog" for
    /// Sarah, once the group hears how the phones mishear her). It syncs with the player, so
    /// every phone's page listens for it.
    struct Aliases: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set what voice recognition may hear for a registered player (none: clears them).")
        @OptionGroup var data: DataOptions
        @Argument(help: "The player's id or name (case does not matter).") var player: String
        @Argument(help: "The aliases, each one argument (\"S-Dog\").") var aliases: [String] = []

        func run() async throws {
            // A name's length at most: an alias is a name as a recognizer writes it.
            if let long = aliases.first(where: { $0.count > Player.maxNameLength }) {
                throw CommandFailure(
                    message: "an alias has at most \(Player.maxNameLength) characters, not \(long.count): \"\(long.prefix(20))…\""
                )
            }
            let db = try data.open()
            let current = try DeviceLookup.player(player, in: try await db.read(.players))
            let changed: Player
            do {
                changed = try Player(id: current.id, displayName: current.displayName, aliases: aliases)
            } catch {
                throw CommandFailure(error)
            }
            guard changed.aliases != current.aliases else {
                print("\(current.displayName) already has those aliases")
                return
            }
            try await db.write(.savePlayer(changed))
            print(
                changed.aliases.isEmpty
                    ? "\(current.displayName) has no aliases now"
                    : "\(current.displayName) may be heard as \(changed.aliases.joined(separator: ", "))")
        }
    }

    /// Issue 14 item 5: a registered player renamed, everywhere from now on (the change
    /// syncs like any edit). Rounds already played keep the name they were played under.
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a registered player (named by id or by name). Rounds already played keep the old name.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The player's id or current name (case does not matter).") var player: String
        @Argument(help: "The new display name.") var name: String

        func run() async throws {
            let db = try data.open()
            let players = try await db.read(.players)
            let current = try DeviceLookup.player(player, in: players)
            let renamed: Player
            do {
                renamed = try Player(id: current.id, displayName: name, aliases: current.aliases)
            } catch {
                throw CommandFailure(error)
            }
            if let other = players.first(where: {
                $0.id != current.id && $0.displayName.caseInsensitiveCompare(renamed.displayName) == .orderedSame
            }) {
                throw CommandFailure(
                    message: "a player named \(other.displayName) is already registered (\(other.id.uuidString))")
            }
            guard renamed.displayName != current.displayName else {
                print("\(current.displayName) is already called that")
                return
            }
            try await db.write(.savePlayer(renamed))
            print("renamed \(current.displayName) to \(renamed.displayName)")
            print(renamed.id.uuidString)
        }
    }
}
