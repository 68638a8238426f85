import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

// Issue 35: undo from the command line. Each is recorded as done "from the command line"
// on this device (whoever can run `hyzer` here owns its store: no organizer code is asked).

enum CommandLineUndo {
    /// Who is acting, as the store records it.
    static func context(_ db: HyzerDatabase) -> ActionContext {
        ActionContext(authority: .commandLine, deviceName: ServerLink.enrolledName(in: db.directory))
    }

    /// Refuses while this device's group server cannot take undo records, and gives the
    /// group's reopen window.
    static func permission(_ db: HyzerDatabase) throws -> UndoPermission {
        let inGroup = (try? ServerLink.load(from: db.files)) != nil
        let permission = try db.read(.undoPermission(inGroup: inGroup))
        if let refusal = permission.refusal { throw CommandFailure(message: refusal) }
        return permission
    }

    /// A score write of an undo on the cell given (`make` picks which), once this device may
    /// undo; entered at this device by nobody in particular.
    static func writeCell(
        _ options: ScoreWriteOptions, _ cell: CellScoreArguments, _ make: (ScoreEntry) -> StoreWrite<RecordedScore>
    ) async throws -> (HyzerDatabase, Participant, RecordedScore) {
        let (db, round) = try options.open()
        _ = try permission(db)
        let who = try DeviceLookup.participant(cell.participant, in: round)
        let entry = ScoreEntry(
            roundID: round.id, participantID: who.id, hole: cell.hole, strokes: cell.strokes,
            reportedBy: ScoreEvent.nobody, deviceName: ServerLink.enrolledName(in: db.directory))
        do {
            return (db, who, try await db.write(make(entry)))
        } catch { throw CommandFailure(error) }
    }
}

extension RoundCommand {
    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reopen a finished round to fix it; finish it again with `hyzer round finish`.",
            discussion: "Only within the group's window after its finish (default 24 h). Syncs if enrolled.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The round's id.") var round: String
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let round = try DeviceLookup.round(self.round, in: db)
            let permission = try CommandLineUndo.permission(db)
            let reopened: Round
            do {
                reopened = try await db.write(
                    .reopenRound(round.id, by: CommandLineUndo.context(db), window: permission.reopenWindow))
            } catch { throw CommandFailure(error) }
            print("reopened round \(round.id.uuidString); it is \(reopened.status.rawValue) until finished again")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    struct Correct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a score of a finished round without reopening it.",
            discussion: "The corrected cell is marked on every device. A round still being played takes `hyzer score`.")
        @OptionGroup var options: ScoreWriteOptions
        @OptionGroup var cell: CellScoreArguments

        func run() async throws {
            let (db, who, recorded) = try await CommandLineUndo.writeCell(options, cell) {
                .correctFinishedScore($0, authority: .commandLine)
            }
            print("corrected \(who.name), hole \(cell.hole): \(cell.strokes); event \(recorded.event.id.uuidString)")
            await options.finish(db)
        }
    }

    /// The kiosk's "Undo" toast from the command line: a retraction of the score this
    /// device saved in a cell, which is then as it was before that save.
    struct UndoScore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo-score",
            abstract: "Withdraw the score this device saved last in a cell, as the kiosk's Undo does.",
            discussion: """
                STROKES is the score as saved. The cell gets back the value it had before (or none), \
                unless another device changed it since. Syncs if enrolled.
                """)
        @OptionGroup var options: ScoreWriteOptions
        @OptionGroup var cell: CellScoreArguments

        func run() async throws {
            let (db, who, recorded) = try await CommandLineUndo.writeCell(options, cell) { .retractScore($0) }
            let now = recorded.cell.value.map { "now \($0)" } ?? "no score now"
            print("withdrew \(who.name)'s \(cell.strokes) on hole \(cell.hole) (\(now)); event \(recorded.event.id.uuidString)")
            await options.finish(db)
        }
    }
}

extension CourseCommand {
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring back a deleted course (by id or name).")
        @OptionGroup var data: DataOptions
        @Argument(help: "The deleted course's id or name (case does not matter).") var course: String

        func run() async throws {
            let db = try data.open()
            let deleted = try await db.read(.deletedCourses)
            let wanted = course.trimmingCharacters(in: .whitespaces)
            let matches = deleted.filter {
                $0.id.uuidString.caseInsensitiveCompare(wanted) == .orderedSame
                    || $0.name.caseInsensitiveCompare(wanted) == .orderedSame
            }
            guard let target = matches.first else {
                throw CommandFailure(message: "no deleted course is named \(wanted) (hyzer course list --deleted)")
            }
            guard matches.count == 1 else {
                throw CommandFailure(message: "\(matches.count) deleted courses are named \(wanted): give the id")
            }
            _ = try CommandLineUndo.permission(db)
            do { try await db.write(.restoreCourse(id: target.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("restored \(target.name)")
            await syncAfterLocalWrite(db, skip: false)
        }
    }
}

extension PlayerCommand {
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take a player off the roster. The rounds they played keep them.")
        @OptionGroup var data: DataOptions
        @Argument(help: "Player id or name.") var player: String

        func run() async throws {
            let db = try data.open()
            let player = try DeviceLookup.player(self.player, in: try await db.read(.players))
            _ = try CommandLineUndo.permission(db)
            do { try await db.write(.removePlayer(id: player.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("removed \(player.displayName) from the roster")
            await syncAfterLocalWrite(db, skip: false)
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge player A into player B: the same person. A leaves the roster; history counts A's rounds as B's.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The player to merge away (id or name).") var a: String
        @Argument(help: "The player to keep (id or name).") var b: String

        func run() async throws {
            let db = try data.open()
            let roster = try await db.read(.players)
            let (from, into) = (try DeviceLookup.player(a, in: roster), try DeviceLookup.player(b, in: roster))
            _ = try CommandLineUndo.permission(db)
            do { try await db.write(.mergePlayer(id: from.id, into: into.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("merged \(from.displayName) into \(into.displayName)")
            await syncAfterLocalWrite(db, skip: false)
        }
    }
}
