import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

/// `hyzer discrepancies`: what the kiosk's resolve screen walks through (issue 9 item 7),
/// for scripts and the admin: each open cell with every value in dispute and who said it,
/// on which device, and when.
struct Discrepancies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List open discrepancies: each cell's values and who recorded them, on which device, when.",
        discussion: "Without ROUND: every active round (several cards can be on the course at once).")

    @OptionGroup var data: DataOptions
    @Argument(help: "Round id, or \"current\" for the newest active round (default: every active round).")
    var round: String?
    @Flag(help: "Print JSON.") var json = false

    /// The printed shape; `--json` encodes it as it is.
    struct Cell: Encodable {
        struct Source: Encodable {
            var strokes: Int
            var reportedBy: String
            var reportedByID: String
            var device: String
            var thisDevice: Bool
            var at: String
            var counts: Bool
            var resolution: Bool
            var event: String
        }
        var round: String
        var course: String
        var participant: String
        var participantID: String
        var hole: Int
        var values: [Int]
        var counting: Int?
        var kinds: [String]
        var sources: [Source]
    }

    func run() async throws {
        let db = try data.open()
        let rounds = try round.map { [try DeviceLookup.round($0, in: db)] } ?? db.activeRounds()
        var cells: [Cell] = []
        for round in rounds {
            let snapshot: RoundSnapshot
            do { snapshot = try db.snapshot(round: round.id) } catch { throw CommandFailure(error) }
            cells += Self.cells(of: snapshot, thisDevice: db.deviceID)
        }
        if json {
            try printJSON(cells)
            return
        }
        guard !cells.isEmpty else {
            print(rounds.isEmpty ? "no active round" : "no open discrepancies")
            return
        }
        for cell in cells {
            print(
                "\(cell.participant), hole \(cell.hole): \(cell.values.map(String.init).joined(separator: " vs "))"
                    + (cell.counting.map { " (\($0) counts now)" } ?? "") + " · \(cell.course) · round \(cell.round)")
            for s in cell.sources {
                print(
                    "  \(s.strokes) by \(s.reportedBy) on device \(s.device)\(s.thisDevice ? " (this one)" : "") at \(s.at)"
                        + (s.counts ? "" : " (overridden)"))
            }
        }
        print("resolve one with: hyzer resolve ROUND PARTICIPANT HOLE STROKES")
    }

    static func cells(of snapshot: RoundSnapshot, thisDevice: String) -> [Cell] {
        let round = snapshot.round
        let byID = Dictionary(uniqueKeysWithValues: snapshot.events.map { ($0.id, $0) })
        return snapshot.scorecard.discrepancies.map { d in
            let resolution = snapshot.scorecard.resolution(participant: d.cell.participantID, hole: d.cell.hole)
            let leafIDs = Set(resolution.leaves.map(\.id))
            let sources = d.eventIDs.compactMap { byID[$0] }.sorted {
                ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString)
            }
            .map { e in
                Cell.Source(
                    strokes: e.strokes, reportedBy: round.participant(e.reportedBy)?.name ?? e.reportedBy.uuidString,
                    reportedByID: e.reportedBy.uuidString, device: e.deviceID, thisDevice: e.deviceID == thisDevice,
                    at: ISO8601Time.string(from: e.createdAt), counts: leafIDs.contains(e.id),
                    resolution: e.isResolution, event: e.id.uuidString)
            }
            return Cell(
                round: round.id.uuidString, course: snapshot.course.name,
                participant: round.participant(d.cell.participantID)?.name ?? d.cell.participantID.uuidString,
                participantID: d.cell.participantID.uuidString, hole: d.cell.hole, values: d.values,
                counting: resolution.value, kinds: d.kinds.map(\.rawValue).sorted(), sources: sources)
        }
    }
}

/// `hyzer resolve`: the same single event the kiosk's resolve screen writes
/// (`HyzerDatabase.resolveDiscrepancy`, reported by the round's organizer as there), then a
/// sync when the device is enrolled, as `hyzer score` does.
struct Resolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Settle an open discrepancy with the value that counts, then sync if enrolled.")

    @OptionGroup var options: ScoreWriteOptions
    @OptionGroup var cell: CellScoreArguments

    func run() async throws {
        let (db, round) = try options.open()
        let (who, hole, strokes) = (try DeviceLookup.participant(cell.participant, in: round), cell.hole, cell.strokes)
        // Said with the name, before the store's own refusal (which only knows ids).
        let open = try db.snapshot(round: round.id).scorecard.discrepancies
        guard open.contains(where: { $0.cell == ScoreCell(participantID: who.id, hole: hole) }) else {
            let list = open.map { "\(round.participant($0.cell.participantID)?.name ?? "?") hole \($0.cell.hole)" }
            throw CommandFailure(
                message: "\(who.name) has no open discrepancy on hole \(hole)"
                    + (list.isEmpty ? "; this round has none" : " (open: \(list.joined(separator: ", ")))"))
        }
        let recorded: RecordedScore
        do {
            recorded = try db.resolveDiscrepancy(
                ScoreEntry(
                    roundID: round.id, participantID: who.id, hole: hole, strokes: strokes, reportedBy: round.organizerID,
                    deviceName: ServerLink.enrolledName(in: db.directory)))
        } catch { throw CommandFailure(error) }
        print(
            "resolved \(who.name), hole \(hole): \(strokes) (supersedes \(recorded.event.supersedes.count)); event \(recorded.event.id.uuidString)"
        )
        await options.finish(db)
    }
}

/// `hyzer round discard`: drops a round started by mistake; the store refuses one with scores.
struct RoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round", abstract: "Manage rounds.",
        subcommands: [Start.self, Finish.self, Discard.self, SummaryLink.self])

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
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let course = try DeviceLookup.course(self.course, in: db)
            let registered = try db.players()
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
                let created = try db.createRound(courseID: course.id, organizerID: organizer.id, participants: participants)
                round = try db.startRound(created.id)
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
            do { _ = try db.finishRound(round.id) } catch { throw CommandFailure(error) }
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
            do { _ = try db.discardRound(round.id) } catch { throw CommandFailure(error) }
            print("discarded round \(round.id.uuidString)")
            await options.finish(db)
        }
    }
}
