import Foundation
import GRDB
import HyzerKit

// Issue 35: undo, as new versions of records and new events, never an UPDATE of the past
// nor a DELETE. Each write records who did it (`RecordedAction`) in the same transaction
// as the change it explains.

extension StoreWrite where Value == Round {
    /// A completed round is being played again, within `window` of its finish, until it
    /// is finished again. A discarded round (finished with no score) stays discarded: there
    /// is nothing in it to correct.
    public static func reopenRound(
        _ roundID: UUID, by who: ActionContext, window: TimeInterval = Round.defaultReopenWindow, at date: Date? = nil
    ) -> Self {
        StoreWrite { db, context in
            guard var round = try Rows.round(id: roundID, db) else { throw StoreError.notFound("round \(roundID)") }
            guard try !ScoreEventRow.filter(ScoreEventRow.Columns.roundID == roundID).isEmpty(db) else {
                throw StoreError.refused("the round was discarded without a score: start a new round instead")
            }
            let now = date ?? context.now
            do throws(RoundError) {
                try round.reopen(at: now, window: window, action: who.action(.reopened, at: now, deviceID: context.deviceID))
            } catch { throw StoreError.round(error) }
            // FR14 as for any round: every hole has a value, so it waits to be finalized
            // again ("All scores recorded. Finalize round?") once the fix is in.
            if let course = try Rows.course(of: round, db), try Rows.allCellsScored(round, course: course, db) {
                round.markAllScored()
            }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
            return round
        }
    }
}

extension StoreWrite where Value == Void {
    /// A deleted course back in the lists, as a new generation that outranks its
    /// tombstone everywhere. Only where its holes are known, and only under a name no
    /// course in use has taken meanwhile.
    public static func restoreCourse(id: UUID, by who: ActionContext) -> Self {
        StoreWrite { db, context in
            guard let row = try CourseRow.fetchOne(db, key: id) else { throw StoreError.notFound("course \(id)") }
            guard row.deletedAt != nil else { throw StoreError.refused("\(row.name) is not deleted") }
            guard let course = try Rows.course(id: id, db) else {
                throw StoreError.refused(
                    "this device never had \(row.name)'s holes: restore it on the device it was played on")
            }
            if let other = try Rows.courses(db).first(where: { $0.name.lowercased() == course.name.lowercased() }) {
                throw StoreError.refused("a course named \(other.name) is in use: rename or delete it first")
            }
            let lineage = CourseLineage(
                generation: row.generation + 1, action: who.action(.courseRestored, at: context.now, deviceID: context.deviceID))
            try Rows.save(course, at: Rows.seconds(context.now), lineage: lineage, db)
        }
    }

    /// Takes a player off the roster. Played rounds keep them (a round keeps its
    /// participants' ids and names), and history still lists those rounds.
    public static func removePlayer(id: UUID, by who: ActionContext) -> Self {
        StoreWrite { db, context in
            let player = try Rows.rosterPlayer(id, db)
            try Rows.save(
                player, at: Rows.seconds(context.now),
                retirement: PlayerRetirement(action: who.action(.playerRemoved, at: context.now, deviceID: context.deviceID)),
                db)
        }
    }

    /// `id` and `target` are one person: `id` leaves the roster, and history counts its
    /// rounds as `target`'s. Two players who played the same round are two people.
    public static func mergePlayer(id: UUID, into target: UUID, by who: ActionContext) -> Self {
        StoreWrite { db, context in
            guard id != target else { throw StoreError.refused("a player cannot be merged into themselves") }
            let player = try Rows.rosterPlayer(id, db)
            let into = try Rows.rosterPlayer(target, db)
            let together =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM round_participants a JOIN round_participants b ON a.round_id = b.round_id
                        WHERE a.participant_id = ? AND b.participant_id = ?
                        """, arguments: [id, target]) ?? 0
            if together > 0 {
                throw StoreError.refused(
                    "\(player.displayName) and \(into.displayName) played a round together, so they are two people")
            }
            try Rows.save(
                player, at: Rows.seconds(context.now),
                retirement: PlayerRetirement(
                    mergedInto: target, action: who.action(.playerMerged, at: context.now, deviceID: context.deviceID)),
                db)
        }
    }
}

extension Rows {
    /// Every merge this device knows of.
    static func playerMerges(_ db: Database) throws -> PlayerMerges {
        let rows = try Row.fetchAll(db, sql: "SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL")
        return PlayerMerges(Dictionary(rows.map { ($0[0] as UUID, $0[1] as UUID) }, uniquingKeysWith: { a, _ in a }))
    }

    /// A player on the roster (not removed or merged).
    static func rosterPlayer(_ id: UUID, _ db: Database) throws -> Player {
        guard let row = try PlayerRow.fetchOne(db, key: id) else { throw StoreError.notFound("player \(id)") }
        guard !row.isRetired else { throw StoreError.refused("\(row.displayName) is no longer on the roster") }
        return try player(row)
    }
}

extension StoreRead where Value == [DeletedCourse] {
    /// Deleted courses, most recently deleted first.
    public static var deletedCourses: Self {
        StoreRead { db in
            // Read on every reload of the kiosk's screens: only the deleted rows, and their
            // holes asked about by index.
            let rows = try CourseRow.filter(CourseRow.Columns.deletedAt != nil).order(CourseRow.Columns.deletedAt.desc)
                .fetchAll(db)
            guard !rows.isEmpty else { return [] }
            let withHoles = Set(
                try UUID.fetchAll(
                    db, HoleRow.filter(rows.map(\.id).contains(HoleRow.Columns.courseID)).select(HoleRow.Columns.courseID)))
            return
                rows
                .map { row in
                    DeletedCourse(
                        id: row.id, name: row.name, deletedAt: Date(timeIntervalSince1970: row.deletedAt ?? row.updatedAt),
                        deletedBy: Rows.action(row.action), restorable: withHoles.contains(row.id))
                }
        }
    }
}

/// A player as the roster and history know them: on the roster or not, and whom they
/// count as.
public struct PlayerIdentity: Sendable, Hashable {
    public var player: Player
    public var retirement: PlayerRetirement?

    public init(player: Player, retirement: PlayerRetirement? = nil) {
        self.player = player
        self.retirement = retirement
    }
}

extension StoreRead where Value == [PlayerIdentity] {
    /// Every player ever known here, removed and merged ones included, by name.
    public static var allPlayers: Self {
        StoreRead { db in
            try PlayerRow.order(Column("display_name").collating(.nocase)).fetchAll(db).map { row in
                PlayerIdentity(player: try Rows.player(row), retirement: Rows.retirement(row))
            }
        }
    }
}
