import Foundation
import GRDB
import HyzerKit

/// A UDisc round brought in (issue 37 item 4): what the import did with it.
public enum UDiscImportOutcome: Sendable, Equatable {
    /// Written: a completed round, with any course and players it needed.
    case imported(roundID: UUID, newCourse: Bool, newPlayers: [String])
    /// Already in the store (imported before, here or on a device that synced it): nothing written.
    case alreadyThere(roundID: UUID)
}

extension StoreWrite where Value == UDiscImportOutcome {
    /// One round of a UDisc export, in one transaction, as a completed round played on its
    /// date. The course is the one named "Course · Layout" (or "Course" with the same number
    /// of holes), else a new one with the export's pars; the round keeps the export's pars
    /// either way. Players are matched by name, case aside, after `renames` (old name →
    /// new); a name nobody has becomes a new registered player. The round's and its scores'
    /// ids come from the export (`UDisc.Round.roundID`), so importing it again, here or on
    /// another device, adds nothing. Everything written is a change like any other: it syncs.
    public static func importUDiscRound(_ source: UDisc.Round, renames: [String: String] = [:]) -> Self {
        StoreWrite { db, context in
            let roundID = source.roundID
            guard try RoundRow.fetchOne(db, key: roundID) == nil else { return .alreadyThere(roundID: roundID) }
            let now = Rows.seconds(context.now)

            let name = source.courseName
            let live = try CourseRow.filter(CourseRow.Columns.deletedAt == nil).fetchAll(db)
            var course: Course?
            for row in live where row.name.caseInsensitiveCompare(name) == .orderedSame {
                course = try Rows.course(id: row.id, db)
                break
            }
            if course == nil, !source.layout.isEmpty {
                for row in live where row.name.caseInsensitiveCompare(source.course) == .orderedSame {
                    if let found = try Rows.course(id: row.id, db), found.holeCount == source.pars.count {
                        course = found
                        break
                    }
                }
            }
            var newCourse = false
            if course == nil {
                do throws(CourseError) {
                    course = try Course(
                        id: StableID.uuid("udisc-course\u{1F}\(name.lowercased())\u{1F}\(source.pars)"), name: name,
                        pars: source.pars)
                } catch { throw StoreError.refused("line \(source.line): \(error)") }
                try Rows.save(course!, at: now, lineage: .original, db)
                newCourse = true
            }
            guard let course else { throw StoreError.notFound("course \(name)") }

            let renamed = Dictionary(renames.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
            let roster = try PlayerRow.filter(PlayerRow.Columns.removedAt == nil && PlayerRow.Columns.mergedInto == nil)
                .fetchAll(db)
            var byName = Dictionary(roster.map { ($0.displayName.lowercased(), $0.id) }, uniquingKeysWith: { a, _ in a })
            var newPlayers: [String] = []
            var participants: [(row: UDisc.Round.Player, participant: Participant)] = []
            for player in source.players {
                let shown = renamed[player.name.lowercased()] ?? player.name
                let id: UUID
                if let known = byName[shown.lowercased()] {
                    id = known
                } else {
                    let made: Player
                    do throws(PlayerError) {
                        made = try Player(id: StableID.uuid("udisc-player\u{1F}\(shown.lowercased())"), displayName: shown)
                    } catch { throw StoreError.refused("line \(player.line): \(error)") }
                    if let existing = try PlayerRow.fetchOne(db, key: made.id), existing.isRetired {
                        throw StoreError.refused("line \(player.line): \(shown) was taken off the roster; use --map to name them")
                    }
                    try Rows.save(made, at: now, db)
                    byName[shown.lowercased()] = made.id
                    newPlayers.append(shown)
                    id = made.id
                }
                guard !participants.contains(where: { $0.participant.id == id }) else {
                    throw StoreError.refused("line \(player.line): \(shown) plays twice in this round")
                }
                participants.append((player, Participant(id: id, name: shown, kind: .registered)))
            }

            // The round as the domain makes one and the store keeps its steps (its players
            // only while it is set up, its scores only while it is played): set up with the
            // players and the export's pars, started on its date, scored, finished at its end.
            var round = Round(
                id: roundID, courseID: course.id, organizerID: participants[0].participant.id, createdAt: source.start)
            do throws(RoundError) {
                for (_, p) in participants { try round.add(p) }
                try round.takePars(of: course.played(with: source.pars))
            } catch { throw StoreError.round(error) }
            try RoundRow(
                id: round.id, courseID: course.id, organizerID: round.organizerID, status: RoundStatus.setup.rawValue,
                createdAt: Rows.seconds(source.start), startedAt: nil, completedAt: nil, updatedAt: now,
                pars: Rows.parsText(round.pars), startHole: 1
            ).insert(db)
            for (ordinal, participant) in round.participants.enumerated() {
                try Rows.insertParticipant(participant, ordinal: ordinal, round: round.id, db)
            }
            do throws(RoundError) { try round.start(at: source.start) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: now, db)
            for (player, participant) in participants {
                for (index, strokes) in player.strokes.enumerated() {
                    guard let strokes else { continue }
                    try Rows.insert(
                        ScoreEvent(
                            id: source.eventID(player: player.name, hole: index + 1), roundID: round.id,
                            participantID: participant.id, hole: index + 1, strokes: strokes, reportedBy: ScoreEvent.nobody,
                            deviceID: UDisc.importDeviceID, createdAt: source.end ?? source.start, deviceName: "UDisc"),
                        db)
                }
            }
            do throws(RoundError) { try round.finish(at: source.end ?? source.start) } catch {
                throw StoreError.round(error)
            }
            try Rows.updateStatus(of: round, at: now, db)
            return .imported(roundID: roundID, newCourse: newCourse, newPlayers: newPlayers)
        }
    }
}
