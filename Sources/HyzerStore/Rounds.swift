import Foundation
import GRDB
import HyzerKit

extension StoreWrite where Value == Round {
    // MARK: Round setup

    /// FR10, FR16: the organizer creates a round on a course, in `setup`; `startHole` for
    /// a card of a shotgun start (issue 36).
    public static func createRound(
        courseID: UUID, organizerID: UUID, participants: [Participant] = [], startHole: Int = 1, at date: Date? = nil
    ) -> Self {
        StoreWrite { db, context in
            let course = try Rows.courseInUse(id: courseID, db)
            let date = date ?? context.now
            var round = Round(courseID: courseID, organizerID: organizerID, createdAt: date)
            do throws(RoundError) {
                for p in participants { try round.add(p) }
                try round.takePars(of: course)
                try round.startOn(hole: startHole)
            } catch { throw StoreError.round(error) }
            try RoundRow(
                id: round.id, courseID: courseID, organizerID: organizerID, status: RoundStatus.setup.rawValue,
                createdAt: Rows.seconds(date), startedAt: nil, completedAt: nil,
                updatedAt: Rows.seconds(date), pars: Rows.parsText(round.pars), startHole: round.startHole
            ).insert(db)
            for (ordinal, participant) in round.participants.enumerated() {
                try Rows.insertParticipant(participant, ordinal: ordinal, round: round.id, db)
            }
            return round
        }
    }

    public static func addParticipant(_ participant: Participant, to roundID: UUID) -> Self {
        mutateRound(roundID) { round, db, _ in
            do throws(RoundError) { try round.add(participant) } catch { throw StoreError.round(error) }
            try Rows.insertParticipant(participant, ordinal: round.participants.count - 1, round: roundID, db)
        }
    }

    public static func removeParticipant(_ participantID: UUID, from roundID: UUID) -> Self {
        mutateRound(roundID) { round, db, _ in
            do throws(RoundError) { try round.remove(participantID: participantID) } catch { throw StoreError.round(error) }
            try ParticipantRow
                .filter(ParticipantRow.Columns.roundID == roundID && ParticipantRow.Columns.participantID == participantID)
                .deleteAll(db)
        }
    }

    /// `setup → active`; from here the participant list is locked (FR13), and the round
    /// keeps the pars its course has now (issue 14). If the course was deleted meanwhile
    /// on another device, the round keeps the pars it was set up with.
    public static func startRound(_ roundID: UUID, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            let course = try Rows.liveCourse(id: round.courseID, db)
            do throws(RoundError) {
                if let course { try round.takePars(of: course) }
                try round.start(at: date ?? context.now)
            } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    /// FR15: finish now; holes without a value are DNF. Also finalizes an
    /// `awaitingFinalization` round ("All scores recorded. Finalize round?").
    ///
    /// A finish that leaves someone a DNF is recorded as `who` finishing it early (issue
    /// 35); a round with every hole scored needs no saying.
    public static func finishRound(_ roundID: UUID, by who: ActionContext? = nil, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            let finish = date ?? context.now
            var action: RecordedAction?
            if let who, let course = try Rows.course(of: round, db), try !Rows.allCellsScored(round, course: course, db) {
                action = who.action(.finishedEarly, at: finish, deviceID: context.deviceID)
            }
            do throws(RoundError) { try round.finish(at: finish, action: action) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    /// Issue 9: drops a round started by mistake, while no cell has a value (none was
    /// saved, or every one was undone at once). It is
    /// finished with nothing in it: the same round record every device already merges (a
    /// completed round never moves back), and history leaves a completed round without
    /// events out. docs/sync-protocol.md says how it syncs.
    public static func discardRound(_ roundID: UUID, by who: ActionContext? = nil, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            guard try !Rows.hasScores(round: round, db) else { throw StoreError.roundHasScores(roundID) }
            let finish = date ?? context.now
            let action = who?.action(.discarded, at: finish, deviceID: context.deviceID)
            do throws(RoundError) { try round.finish(at: finish, action: action) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    private static func mutateRound(
        _ id: UUID, _ body: @escaping @Sendable (inout Round, Database, StoreContext) throws -> Void
    ) -> Self {
        StoreWrite { db, context in
            guard var round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
            try body(&round, db, context)
            return round
        }
    }
}

// MARK: Reads

extension StoreRead where Value == Round? {
    public static func round(id: UUID) -> Self { StoreRead { db in try Rows.round(id: id, db) } }
}

extension StoreRead where Value == [Round] {
    /// Rounds being played (active or awaiting finalization), newest first.
    public static var activeRounds: Self {
        StoreRead { db in
            try RoundRow
                .filter(
                    [RoundStatus.active.rawValue, RoundStatus.awaitingFinalization.rawValue]
                        .contains(RoundRow.Columns.status)
                )
                .order(RoundRow.Columns.createdAt.desc)
                .fetchAll(db).map { try Rows.round($0, db) }
        }
    }
}

extension StoreRead where Value == RoundSnapshot {
    /// Round, course, events and aliases read in one transaction, so they agree.
    public static func snapshot(round id: UUID) -> Self { StoreRead { db in try HyzerDatabase.snapshot(id, db) } }
}

extension HyzerDatabase {
    static func snapshot(_ id: UUID, _ db: Database) throws -> RoundSnapshot {
        guard let round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
        guard let course = try Rows.course(of: round, db) else {
            throw StoreError.notFound("course \(round.courseID)")
        }
        let participantIDs = ParticipantRow.filter(ParticipantRow.Columns.roundID == id)
            .select(ParticipantRow.Columns.participantID)
        var aliases: [UUID: [String]] = [:]
        for row in try PlayerRow.filter(participantIDs.contains(Column("id"))).fetchAll(db) {
            let player = try Rows.player(row)
            aliases[player.id] = player.aliases
        }
        return RoundSnapshot(round: round, course: course, events: try Rows.events(round: id, db), aliases: aliases)
    }

    /// In-process observation of a round: a new snapshot after every commit that changes
    /// it, never the same one twice. (Another process's writes: `ChangeMonitor`.)
    public func observe(round id: UUID) -> AsyncValueObservation<RoundSnapshot> {
        ValueObservation.tracking { db in try Self.snapshot(id, db) }.removeDuplicates().values(in: domain)
    }
}
