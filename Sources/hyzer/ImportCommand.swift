import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer import udisc FILE.csv`: a group's UDisc history, brought in (issue 37 item 4).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring rounds in from another app.", subcommands: [UDiscImport.self])

    struct UDiscImport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "udisc",
            abstract: "Import UDisc's scorecard export (CSV) as completed rounds.",
            discussion: """
                Both header forms UDisc has used are read: PlayerName, CourseName, LayoutName, Date, Total, +/-,
                Hole1…HoleN and PlayerName, CourseName, LayoutName, StartDate, EndDate, Total, +/-, RoundRating,
                Hole1…HoleN. Each round's "Par" row gives its pars. A course is matched by "Course · Layout" (or its
                name with the same number of holes) and made otherwise; a player by name, after --map. Importing a
                file again adds nothing. A round with a row that cannot be read is listed with the line and left
                out, nothing of it written; the others are imported (exit status 1 when any was left out).
                """)

        @OptionGroup var data: DataOptions
        @Argument(help: "The export, a CSV file.") var file: String
        @Option(
            name: .customLong("map"), parsing: .singleValue,
            help: "A player renamed since: OLD=NEW (repeatable).")
        var renames: [String] = []
        @Option(help: "The time zone the export's times are in (default: this machine's).") var timeZone: String?
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func validate() throws {
            for rename in renames where rename.split(separator: "=", maxSplits: 1).count != 2 {
                throw ValidationError("--map takes OLD=NEW, not \(rename)")
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("\(timeZone) is not a time zone (Europe/Helsinki, say)")
            }
        }

        func run() async throws {
            let map = Dictionary(
                renames.map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map {
                        String($0).trimmingCharacters(in: .whitespaces)
                    }
                    return (parts[0], parts[1])
                }, uniquingKeysWith: { _, new in new })
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CommandFailure(message: "cannot read \(file)")
            }
            defer { try? handle.close() }
            let db = try data.open()
            var csv = CSVReader()
            var reader = UDiscReader(timeZone: timeZone.flatMap(TimeZone.init(identifier:)) ?? .current)
            var report = Report()
            // A chunk at a time: one round is in memory, never the file.
            while true {
                let chunk = try handle.read(upToCount: 1 << 16) ?? Data()
                let records = chunk.isEmpty ? csv.finish() : csv.feed(chunk)
                for record in records {
                    for outcome in reader.add(record.fields, line: record.line) { try await report.take(outcome, db, map) }
                }
                if chunk.isEmpty { break }
            }
            for outcome in reader.finish() { try await report.take(outcome, db, map) }
            print(report.summary)
            for problem in report.refused { print("  refused, line \(problem.line): \(problem.reason)") }
            if report.imported > 0 { await syncAfterLocalWrite(db, skip: noSync) }
            if !report.refused.isEmpty {
                throw CommandFailure(message: "\(report.refused.count) round(s) left out; the rest are imported")
            }
        }

        /// What the import did, round by round.
        struct Report {
            var imported = 0
            var alreadyThere = 0
            var newCourses = 0
            var newPlayers: [String] = []
            var refused: [UDisc.Problem] = []

            mutating func take(_ outcome: UDiscReader.Outcome, _ db: HyzerDatabase, _ map: [String: String]) async throws {
                switch outcome {
                case .refused(let problem):
                    refused.append(problem)
                case .round(let round):
                    do {
                        switch try await db.write(.importUDiscRound(round, renames: map)) {
                        case .imported(_, let newCourse, let players):
                            imported += 1
                            newCourses += newCourse ? 1 : 0
                            newPlayers += players
                        case .alreadyThere:
                            alreadyThere += 1
                        }
                    } catch let error as StoreError {
                        refused.append(UDisc.Problem(line: round.line, reason: "\(error)"))
                    }
                }
            }

            var summary: String {
                var parts = ["imported \(imported) round\(imported == 1 ? "" : "s")"]
                if alreadyThere > 0 { parts.append("\(alreadyThere) already here") }
                if newCourses > 0 { parts.append("\(newCourses) new course\(newCourses == 1 ? "" : "s")") }
                if !newPlayers.isEmpty {
                    parts.append(
                        "\(newPlayers.count) new player\(newPlayers.count == 1 ? "" : "s") (\(newPlayers.joined(separator: ", ")))"
                    )
                }
                if !refused.isEmpty { parts.append("\(refused.count) left out") }
                return parts.joined(separator: ", ")
            }
        }
    }
}

/// `hyzer export csv`: every completed round in UDisc's (newer) export format, which
/// `hyzer import udisc` reads back.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the history out.", subcommands: [CSVExport.self])

    struct CSVExport: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Write every completed round as UDisc's scorecard export (CSV), oldest first.",
            discussion: """
                The newer header form: PlayerName, CourseName, LayoutName, StartDate, EndDate, Total, +/-, RoundRating,
                Hole1…HoleN, one Par row a round then each player's. A course named "Course · Layout" (as an import
                names one) is written back as its course and layout. Discarded rounds are left out.
                """)

        @OptionGroup var data: DataOptions
        @Option(name: .shortAndLong, help: "Write to this file (default: standard output).") var output: String?
        @Option(help: "The time zone to write times in (default: this machine's).") var timeZone: String?

        func validate() throws {
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("\(timeZone) is not a time zone (Europe/Helsinki, say)")
            }
        }

        func run() async throws {
            let db = try data.open()
            let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
            let rounds = try await db.read(.completedRounds).reversed()
            let holes = rounds.map(\.course.holeCount).max() ?? 18
            var text = UDisc.header(holes: holes).map(UDisc.csvField).joined(separator: ",") + "\n"
            for snapshot in rounds {
                let round = snapshot.round
                let scorecard = snapshot.scorecard
                let parts = snapshot.course.name.components(separatedBy: UDisc.layoutSeparator)
                let (course, layout) =
                    parts.count == 2 ? (parts[0], parts[1]) : (snapshot.course.name, "")
                let rows = UDisc.rows(
                    course: course, layout: layout, start: round.startedAt ?? round.createdAt, end: round.completedAt,
                    pars: snapshot.course.pars,
                    players: round.participants.map { p in
                        (p.name, snapshot.course.holes.map { scorecard.value(participant: p.id, hole: $0) })
                    }, holes: holes, timeZone: zone)
                for row in rows { text += row.map(UDisc.csvField).joined(separator: ",") + "\n" }
            }
            if let output {
                do { try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                    throw CommandFailure(message: "cannot write \(output): \(error.localizedDescription)")
                }
                print("wrote \(rounds.count) round\(rounds.count == 1 ? "" : "s") to \(output)")
            } else {
                print(text, terminator: "")
            }
        }
    }
}
