import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol

/// `hyzer round`: rounds from scripts, as the kiosk makes them: `start`, `finish`,
/// `discard` (a round started by mistake; the store refuses one with scores),
/// `summary-link`, and undo (issue 35, UndoCommands.swift): `reopen` and `correct`.
struct RoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round", abstract: "Manage rounds.",
        subcommands: [Start.self, Finish.self, Discard.self, SummaryLink.self, Reopen.self, Correct.self, UndoScore.self])

    /// Issue 14 item 5: a round set up and started as the kiosk's setup does, for scripts.
    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a round on a course with registered players and walk-up guests; prints the round id last.",
            discussion: """
                The first registered player named is the organizer (the first guest when there is none).
                Guests play this round only; two guests of one name are two people. Syncs if enrolled.
                """)

        @OptionGroup var data: DataOptions
        @Option(help: "The course, by id or name.") var course: String
        @Option(help: "Registered players, by id or name, comma-separated.") var players: String?
        @Option(name: .customLong("guest"), help: "A walk-up guest's name (repeatable).") var guests: [String] = []
        @Option(
            name: .customLong("start-hole"),
            help: "The hole the card starts on (a shotgun start); it plays round the course from there.")
        var startHole = 1
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let course = try DeviceLookup.course(self.course, in: db)
            let registered = try await db.read(.players)
            let names = (players ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            var participants: [Participant] = []
            for name in names {
                let player = try DeviceLookup.player(name, in: registered)
                guard !participants.contains(where: { $0.id == player.id }) else {
                    throw CommandFailure(message: "\(player.displayName) is named twice")
                }
                participants.append(.registered(player))
            }
            do {
                for guest in guests { participants.append(try .guest(named: guest)) }
            } catch {
                throw CommandFailure(error)
            }
            guard let organizer = participants.first else {
                throw CommandFailure(message: "a round needs at least one player: --players A,B or --guest NAME")
            }
            // `createRound` checks every participant before it writes; with one at least, the
            // start cannot be refused.
            let round: Round
            do {
                let created = try await db.write(
                    .createRound(
                        courseID: course.id, organizerID: organizer.id, participants: participants, startHole: startHole))
                round = try await db.write(.startRound(created.id))
            } catch {
                throw CommandFailure(error)
            }
            let roster = round.participants.map { $0.isGuest ? "\($0.name) (guest)" : $0.name }.joined(separator: ", ")
            print("started a round on \(course.name): \(roster)")
            await syncAfterLocalWrite(db, skip: noSync)
            print(round.id.uuidString)  // last, for scripts
        }
    }

    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Finish a round now, as the kiosk's \"Finish round now\" does (holes nobody scored stay empty: DNF), then sync if enrolled."
        )

        @OptionGroup var data: DataOptions
        @Argument(help: "Round id, or \"current\" (the default) for the newest active round.") var round = "current"
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let round = try DeviceLookup.round(self.round, in: db)
            do { _ = try await db.write(.finishRound(round.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("finished round \(round.id.uuidString)")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    /// The kiosk's summary-card QR code, as a line: the same link, asked for the same way.
    struct SummaryLink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary-link",
            abstract:
                "Print a link to a round's summary page on the group server (what the kiosk's summary card shows as a QR code), last."
        )

        @OptionGroup var data: DataOptions
        @Argument(help: "Round id, or \"current\" for the newest active round.") var round: String

        func run() async throws {
            let db = try data.open()
            let round = try DeviceLookup.round(self.round, in: db)
            guard let link = try ServerLink.load(from: db.files) else {
                throw CommandFailure(message: "this device is not enrolled in a group; summary pages live on the group server")
            }
            do {
                let made = try await SyncClient(link: link).createSummaryLink(roundID: round.id)
                print(link.serverURL + made.path)
            } catch {
                throw CommandFailure(message: "asking \(link.serverURL) for a summary link failed: \(error)")
            }
        }
    }

    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Discard a round that has no scores yet (started by mistake), then sync if enrolled.")

        @OptionGroup var options: ScoreWriteOptions

        func run() async throws {
            let (db, round) = try options.open()
            do { _ = try await db.write(.discardRound(round.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("discarded round \(round.id.uuidString)")
            await options.finish(db)
        }
    }
}
