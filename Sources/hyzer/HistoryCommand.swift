import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer history`: the completed rounds, newest first (issue 9), read a page at a time as
/// the kiosk reads them.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the completed rounds, newest first: id, date, course, winner, players.",
        discussion: """
            Discarded rounds (finished with no scores) are left out. Ties list every winner.
            With --json: an array of {"id", "completedAt", "course", "winners", "players", "playerIDs",
            "actions", "correctedCells"}: playerIDs count a merged player as the one they were merged into;
            actions say who finished a round early or reopened it: {"kind", "at", "deviceID", "deviceName",
            "authority", "text"}.
            """)

    @OptionGroup var data: DataOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "At most this many rounds (default: all).") var limit: Int?

    struct Line: Encodable {
        var id: UUID
        var completedAt: String
        var course: String
        var winners: [String]
        var players: [String]
        var playerIDs: [UUID]
        var actions: [ActionLine]
        var correctedCells: Int
    }

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let db = try data.open()
        var lines: [HistoryLine] = []
        var cursor: HistoryCursor?
        repeat {
            let page = try await db.read(.historyPage(after: cursor, limit: min(100, limit.map { $0 - lines.count } ?? 100)))
            lines += page.lines
            cursor = page.next
        } while cursor != nil && lines.count < (limit ?? .max)
        if json {
            try printJSON(
                lines.map {
                    Line(
                        id: $0.roundID, completedAt: ISO8601Time.string(from: $0.completedAt), course: $0.courseName,
                        winners: $0.winners, players: $0.players, playerIDs: $0.playerIDs,
                        actions: $0.actions.map(ActionLine.init), correctedCells: $0.correctedCells)
                })
            return
        }
        guard !lines.isEmpty else {
            print("no completed rounds in \(db.files.path)")
            return
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let courseWidth = max(6, lines.map(\.courseName.count).max() ?? 6)
        let winnerWidth = max(6, lines.map(\.winnerText.count).max() ?? 6)
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        print("DATE              " + pad("COURSE", courseWidth) + "  " + pad("WINNER", winnerWidth) + "  PLAYERS  ID")
        for line in lines {
            print(
                formatter.string(from: line.completedAt) + "  " + pad(line.courseName, courseWidth) + "  "
                    + pad(line.winnerText, winnerWidth) + "  " + line.players.joined(separator: ", ") + "  "
                    + line.roundID.uuidString)
            for action in line.actions { print("    " + ActionLine(action).text) }
            if line.correctedCells > 0 {
                print("    \(line.correctedCells) score\(line.correctedCells == 1 ? "" : "s") corrected after the finish")
            }
        }
    }
}

/// One recorded action as the command line prints it (issue 35 item 4).
struct ActionLine: Encodable {
    var kind: String
    var at: String
    var deviceID: String
    var deviceName: String?
    var authority: String
    /// "Reopened 2026-11-28T14:02:00Z on Clubhouse kiosk with the organizer code".
    var text: String

    init(_ action: RecordedAction) {
        kind = action.kind.rawValue
        at = ISO8601Time.string(from: action.at)
        deviceID = action.deviceID
        deviceName = action.deviceName
        authority = action.authority.rawValue
        text = "\(action.kind) \(at) on \(action.deviceName ?? action.deviceID) \(action.authority)"
    }
}
