import Foundation
import GRDB
import HyzerKit

// The kiosk's stats pages (issue 37 item 3): a player's or a course's finished rounds, read
// when the page is opened (never kept as totals), and worked out by HyzerKit's rules.

extension StoreRead where Value == PlayerStats {
    /// A player's numbers over their finished rounds, those of players merged into them too.
    public static func playerStats(_ id: UUID) -> Self {
        StoreRead { db in
            let merges = try Rows.playerMerges(db)
            let merged = Set(try UUID.fetchAll(db, sql: "SELECT id FROM players").filter { merges.canonical($0) == id })
                .subtracting([id])
            let ids = Array(merged.union([id]))
            let rounds = try UUID.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT r.id FROM rounds r JOIN round_participants p ON p.round_id = r.id
                    WHERE r.status = 'completed' AND p.participant_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments(ids))
            return PlayerStats(player: id, merged: merged, rounds: try rounds.map { try HyzerDatabase.snapshot($0, db) })
        }
    }
}

extension StoreRead where Value == CourseStats {
    /// A course's numbers over its finished rounds.
    public static func courseStats(_ id: UUID) -> Self {
        StoreRead { db in
            guard let course = try Rows.course(id: id, db) else { throw StoreError.notFound("course \(id)") }
            let rounds = try UUID.fetchAll(
                db, sql: "SELECT id FROM rounds WHERE course_id = ? AND status = 'completed'", arguments: [id])
            return CourseStats(course: course, rounds: try rounds.map { try HyzerDatabase.snapshot($0, db) })
        }
    }
}
