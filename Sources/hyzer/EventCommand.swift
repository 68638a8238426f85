import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer event`: league nights from scripts (issue 36), as the kiosk makes them: `create`
/// (check-in, the draw and the shotgun start in one), `show` (the night's board and side
/// games), `list`, `swap` (two players before the start), `ctp` (a closest-to-the-pin
/// winner) and `discard`.
struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event", abstract: "League nights: several cards on one course, one board, side games.",
        subcommands: [Create.self, Show.self, List.self, Swap.self, ClosestToPin.self, Discard.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a league night: draw the cards, give each a start hole, start them; prints the event id last.",
            discussion: """
                Either --players (and --guest) with a draw: cards of 3 to 5, balanced by recent form \
                (the average to par of each player's last five rounds) or random (--seed makes it again); \
                or the cards as they are, one --card "Ann,Bo,guest:Sam" each. Cards start on holes spread \
                round the course (3 cards on 9 holes: 1, 4, 7) unless --start-holes says otherwise.
                """)

        enum Draw: String, ExpressibleByArgument, CaseIterable { case balanced, random }

        @OptionGroup var data: DataOptions
        @Argument(help: "The night's name, e.g. \"Thursday league\".") var name: String
        @Option(help: "The course, by id or name.") var course: String
        @Option(help: "Registered players to draw into cards, by id or name, comma-separated.") var players: String?
        @Option(name: .customLong("guest"), help: "A walk-up guest to draw in (repeatable).") var guests: [String] = []
        @Option(help: "How to draw the cards: \(Draw.allCases.map(\.rawValue).joined(separator: " or ")).")
        var draw: Draw = .balanced
        @Option(help: "The random draw's seed (the same seed draws the same cards).") var seed: UInt64?
        @Option(
            name: .customLong("card"),
            help: "One card as it is: names comma-separated, guest:NAME for a walk-up guest (repeatable; instead of a draw).")
        var cards: [String] = []
        @Option(name: .customLong("start-holes"), help: "Each card's start hole, comma-separated, card A first.")
        var startHoles: String?
        @Option(help: "Skins: off, field (everyone against everyone) or card (each card on its own).")
        var skins: LeagueEvent.SkinsGame = .off
        @Option(help: "Closest-to-the-pin holes, comma-separated.") var ctp: String?
        @Option(name: .customLong("ace-pot"), help: "The ace pot's buy-in a player, in the group's units.")
        var acePot: Int?
        @Option(
            name: .customLong("ace-pot-players"),
            help: "Who is in the ace pot: \"all\" (the default with --ace-pot) or names, comma-separated.")
        var acePotPlayers = "all"
        @Option(help: "The day it is played, YYYY-MM-DD (default: today).") var day: String?
        @Flag(
            help: ArgumentHelp(
                "Rank by net: each player's to par less their handicap on the course before tonight.",
                discussion: "A player with fewer than 3 finished rounds on the course has none, and is ranked gross."))
        var net = false
        @Flag(name: .customLong("no-start"), help: "Leave the cards in setup (players can still be swapped).")
        var noStart = false
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let course = try DeviceLookup.course(self.course, in: db)
            let registered = try await db.read(.players)
            let drawn = try await cardsToPlay(db, registered)
            guard let organizer = drawn.first?.first else {
                throw CommandFailure(message: "a league night needs players: --players A,B,C or --card A,B,C")
            }
            let holes = try parsedHoles(startHoles, "--start-holes")
            if !holes.isEmpty, holes.count != drawn.count {
                throw CommandFailure(message: "\(drawn.count) cards need \(drawn.count) start holes, not \(holes.count)")
            }
            let cards = drawn.enumerated().map { index, participants in
                LeagueNightCard(
                    participants: participants,
                    startHole: holes.isEmpty
                        ? CardDraw.startHole(card: index, of: drawn.count, holes: course.holeCount) : holes[index])
            }
            var pot: LeagueEvent.AcePotEntry?
            if let acePot {
                let everyone = drawn.flatMap { $0 }
                let names = EventCommand.names(acePotPlayers)
                let inPot =
                    acePotPlayers.lowercased() == "all"
                    ? everyone.map(\.id)
                    : try names.map { name in
                        guard let p = everyone.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                            throw CommandFailure(message: "\(name) is in the ace pot but on none of the cards")
                        }
                        return p.id
                    }
                pot = LeagueEvent.AcePotEntry(buyIn: acePot, players: inPot)
            }
            let event: LeagueEvent
            do {
                event = try await db.write(
                    .createLeagueNight(
                        name: name, courseID: course.id, organizerID: organizer.id, cards: cards, skins: skins,
                        closestToPin: try parsedHoles(ctp, "--ctp"), acePot: pot, net: net, day: day))
                if !noStart { _ = try await db.write(.startLeagueNight(event.id)) }
            } catch let failure as CommandFailure {
                throw failure
            } catch {
                throw CommandFailure(error)
            }
            print("\(event.name) on \(course.name), \(event.day): \(cards.count) card\(cards.count == 1 ? "" : "s")")
            for (index, card) in cards.enumerated() {
                let names = card.participants.map { $0.isGuest ? "\($0.name) (guest)" : $0.name }
                print("  \(CardDraw.letter(index)) from hole \(card.startHole): \(names.joined(separator: ", "))")
            }
            await syncAfterLocalWrite(db, skip: noSync)
            print(event.id.uuidString)  // last, for scripts
        }

        /// The cards: as given, or drawn from the players and guests.
        private func cardsToPlay(_ db: HyzerDatabase, _ registered: [Player]) async throws -> [[Participant]] {
            if !cards.isEmpty {
                guard players == nil, guests.isEmpty else {
                    throw CommandFailure(message: "give the cards (--card) or the players to draw (--players), not both")
                }
                return try cards.map { card in try EventCommand.names(card).map { try participant($0, registered) } }
            }
            var everyone: [Participant] = []
            for name in EventCommand.names(players ?? "") {
                let player = try DeviceLookup.player(name, in: registered)
                guard !everyone.contains(where: { $0.id == player.id }) else {
                    throw CommandFailure(message: "\(player.displayName) is named twice")
                }
                everyone.append(.registered(player))
            }
            do { for guest in guests { everyone.append(try .guest(named: guest)) } } catch { throw CommandFailure(error) }
            let ids = everyone.map(\.id)
            let byID = Dictionary(uniqueKeysWithValues: everyone.map { ($0.id, $0) })
            let drawn: [[UUID]]
            switch draw {
            case .balanced:
                drawn = CardDraw.balanced(ids, form: try await db.read(.recentForm(of: ids)))
            case .random:
                var generator = SeededGenerator(seed: seed ?? UInt64.random(in: 0...UInt64.max))
                drawn = CardDraw.random(ids, using: &generator)
            }
            return drawn.map { $0.compactMap { byID[$0] } }
        }

        private func participant(_ name: String, _ registered: [Player]) throws -> Participant {
            if name.lowercased().hasPrefix("guest:") {
                do { return try .guest(named: String(name.dropFirst("guest:".count))) } catch { throw CommandFailure(error) }
            }
            return .registered(try DeviceLookup.player(name, in: registered))
        }

        private func parsedHoles(_ text: String?, _ option: String) throws -> [Int] {
            try EventCommand.names(text ?? "").map { item in
                guard let hole = Int(item), hole >= 1 else {
                    throw CommandFailure(message: "\(option): \"\(item)\" is not a hole number")
                }
                return hole
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A league night's board: every card ranked together, skins, closest to the pin, aces, the ace pot.")

        @OptionGroup var data: DataOptions
        @Argument(help: "Event id, or \"latest\" (the default).") var event = "latest"
        @Flag(help: "Print it as JSON.") var json = false

        func run() async throws {
            let db = try data.open()
            let night = try await EventCommand.night(event, db)
            let pot = try await db.read(.acePot)
            let view = EventView(night, acePot: pot)
            if json { try printJSON(view) } else { print(view.text) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "League nights, the latest first.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let db = try data.open()
            for event in try await db.read(.leagueNights()) {
                print("\(event.day)  \(event.name)  \(event.rounds.count) cards  \(event.id.uuidString)")
            }
        }
    }

    struct Swap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Swap two players on different cards before the night starts (made with --no-start).")

        @OptionGroup var data: DataOptions
        @Argument(help: "Event id, or \"latest\".") var event: String
        @Argument(help: "A player on one card.") var first: String
        @Argument(help: "A player on another card.") var second: String
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let night = try await EventCommand.night(event, db)
            let a = try EventCommand.participant(first, in: night)
            let b = try EventCommand.participant(second, in: night)
            do { _ = try await db.write(.swapPlayers(a.id, b.id, in: night.event.id)) } catch { throw CommandFailure(error) }
            print("swapped \(a.name) and \(b.name)")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    struct ClosestToPin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ctp", abstract: "Enter who won a closest-to-the-pin hole (or \"nobody\").")

        @OptionGroup var data: DataOptions
        @Argument(help: "Event id, or \"latest\".") var event: String
        @Argument(help: "The hole.") var hole: Int
        @Argument(help: "The winner's name, or \"nobody\".") var winner: String
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let night = try await EventCommand.night(event, db)
            let who = winner.lowercased() == "nobody" ? nil : try EventCommand.participant(winner, in: night)
            do { _ = try await db.write(.setClosestToPin(night.event.id, hole: hole, winner: who?.id)) } catch {
                throw CommandFailure(error)
            }
            print("closest to the pin on hole \(hole): \(who?.name ?? "nobody")")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Discard a league night made by mistake; its cards without scores are discarded with it.")

        @OptionGroup var data: DataOptions
        @Argument(help: "Event id.") var event: String
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let night = try await EventCommand.night(event, db)
            do { _ = try await db.write(.discardLeagueNight(night.event.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("discarded \(night.event.name)")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    static func names(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func night(_ text: String, _ db: HyzerDatabase) async throws -> LeagueNightSnapshot {
        let id: UUID
        if text.lowercased() == "latest" {
            guard let latest = try await db.read(.leagueNights(limit: 1)).first else {
                throw CommandFailure(message: "no league night in \(db.files.path) (hyzer event create)")
            }
            id = latest.id
        } else {
            guard let given = UUID(uuidString: text) else {
                throw CommandFailure(message: "\"\(text)\" is not an event id (a UUID, or \"latest\")")
            }
            id = given
        }
        guard let night = try await db.read(.leagueNight(id: id)), !night.event.discarded else {
            throw CommandFailure(
                message: "league night \(text) is not in \(db.files.path); run `hyzer sync` if another device made it")
        }
        // A night ranked by net, with its players' handicaps as the kiosk ranks it.
        return night.event.net ? night.handicapped(try await db.read(.nightHandicaps(night))) : night
    }

    static func participant(_ name: String, in night: LeagueNightSnapshot) throws -> Participant {
        let everyone = night.participants
        if let id = UUID(uuidString: name), let p = everyone.first(where: { $0.id == id }) { return p }
        let matches = everyone.filter {
            $0.name.caseInsensitiveCompare(name.trimmingCharacters(in: .whitespaces)) == .orderedSame
        }
        guard matches.count == 1 else {
            throw CommandFailure(
                message: matches.isEmpty
                    ? "nobody called \"\(name)\" plays tonight (\(everyone.map(\.name).joined(separator: ", ")))"
                    : "two players tonight are called \"\(name)\": use the id")
        }
        return matches[0]
    }
}

extension LeagueEvent.SkinsGame: ExpressibleByArgument {}

/// `hyzer event show`: what the kiosk's night board and summary say, as text or JSON.
struct EventView: Encodable {
    struct Card: Encodable {
        var letter: String
        var round: UUID
        var startHole: Int
        var players: [String]
    }

    struct Row: Encodable {
        var position: String
        var name: String
        var card: String
        var toPar: Int
        var thru: String
        /// On a night ranked by net: the handicap given and the net to par ("+1.5"); both
        /// absent for a player without a handicap (ranked gross).
        var handicap: Double?
        var net: String?
    }

    struct SkinsGame: Encodable {
        /// "field", or the card's letter.
        var game: String
        var won: [String: Int]
        /// Skins carried onto the first hole not decided yet.
        var carried: Int
        var unclaimed: Int
    }

    struct ClosestToPin: Encodable {
        var hole: Int
        var winner: String?
    }

    var id: UUID
    var name: String
    var day: String
    var finished: Bool
    /// Ranked by net (issue 37).
    var rankedByNet: Bool
    var cards: [Card]
    var standings: [Row]
    var skins: [SkinsGame]
    var closestToPin: [ClosestToPin]
    var aces: [String]
    var acePot: Int

    init(_ night: LeagueNightSnapshot, acePot: AcePot) {
        let event = night.event
        let names = night.names
        id = event.id
        name = event.name
        day = event.day
        finished = night.results.finished
        rankedByNet = event.net
        cards = night.cards.map { card in
            Card(
                letter: event.letter(of: card.round.id) ?? "?", round: card.round.id, startHole: card.round.startHole,
                players: card.round.participants.map(\.name))
        }
        standings = night.results.standings.standings.rows.map { row in
            Row(
                position: row.positionLabel, name: row.name,
                card: night.results.standings.card[row.participantID].map(CardDraw.letter) ?? "?", toPar: row.toPar,
                thru: row.status == .dnf ? "DNF" : row.status == .finished ? "F" : "\(row.thru)",
                handicap: row.netTenths == nil ? nil : night.handicaps[row.participantID],
                net: row.netTenths == nil ? nil : row.scoreText())
        }
        skins = night.results.skinsGames.map { card, game in
            SkinsGame(
                game: card ?? "field",
                won: Dictionary(game.won.map { (names[$0.key] ?? "?", $0.value) }, uniquingKeysWith: +),
                carried: (game.riding?.skins ?? 1) - 1, unclaimed: game.unclaimed)
        }
        closestToPin = event.closestToPin.map { ClosestToPin(hole: $0.hole, winner: $0.winner.flatMap { names[$0] }) }
        aces = night.results.aces.map { "\(names[$0.participantID] ?? "?") on hole \($0.hole)" }
        self.acePot = acePot.total
    }

    var text: String {
        var lines = [
            "\(name) · \(day) · \(cards.count) card\(cards.count == 1 ? "" : "s")\(finished ? " · final" : "")"
                + (rankedByNet ? " · ranked by net" : "")
        ]
        for card in cards {
            lines.append("  \(card.letter) from hole \(card.startHole): \(card.players.joined(separator: ", "))")
        }
        lines.append("Standings")
        for row in standings {
            let toPar = ScoreFormat.toPar(row.toPar)
            // Net first on a night ranked by net, the gross and the handicap after it.
            let score =
                !rankedByNet
                ? toPar.padding(toLength: 4, withPad: " ", startingAt: 0)
                : (row.net ?? toPar).padding(toLength: 6, withPad: " ", startingAt: 0)
            var line =
                "  \(row.position.padding(toLength: 4, withPad: " ", startingAt: 0))\(row.name.padding(toLength: 16, withPad: " ", startingAt: 0))\(row.card)  \(score)thru \(row.thru)"
            if rankedByNet, row.thru != "DNF" {
                line += row.handicap.map { "  (\(toPar) gross, handicap \(Handicap.text($0)))" } ?? "  (gross: no handicap yet)"
            }
            lines.append(line)
        }
        for game in skins {
            let won = game.won.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
            var line = "Skins (\(game.game)): " + (won.isEmpty ? "none won yet" : won.joined(separator: ", "))
            if game.carried > 0 { line += "; \(game.carried) riding" }
            if game.unclaimed > 0 { line += "; \(game.unclaimed) unclaimed" }
            lines.append(line)
        }
        for ctp in closestToPin { lines.append("Closest to the pin, hole \(ctp.hole): \(ctp.winner ?? "not entered")") }
        lines.append("Aces: " + (aces.isEmpty ? "none" : aces.joined(separator: ", ")))
        lines.append("Ace pot: \(acePot)")
        return lines.joined(separator: "\n")
    }
}
