import Foundation
import HyzerKit

/// The order in which changes of one mutable record win, the same on the server and on
/// every device so all of them converge on the same value whatever order changes arrive in.
///
/// 1. A later lifecycle stage wins. Rounds: setup < active < awaitingFinalization <
///    completed; a round never moves back, so a late "active" copy can never undo a finish.
///    Courses: in use < deleted; an edit made offline never brings a deleted course back.
///    Players: on the roster < removed < merged. League nights: open < discarded;
///    seasons: kept < deleted.
///    Undo (issue 35, protocol 2) is a new generation above all of these: a reopened
///    round is `4·generation + stage`, a restored course `2·generation + deleted`. A
///    reopening outranks every copy of the finish it undid, and a restore the tombstone,
///    by the same rule that let the finish and the tombstone win before.
/// 2. The later `updatedAt` wins (last writer wins; clocks may skew, which only decides
///    which of two concurrent edits of a name or par survives).
/// 3. A tie is broken by the version UUID's bytes, so it is still deterministic.
public struct ChangeStamp: Sendable, Hashable, Comparable {
    public var lifecycle: Int
    public var updatedAt: Double
    public var version: UUID

    public init(lifecycle: Int = 0, updatedAt: Double, version: UUID) {
        self.lifecycle = lifecycle
        self.updatedAt = updatedAt
        self.version = version
    }

    public static func < (a: ChangeStamp, b: ChangeStamp) -> Bool {
        if a.lifecycle != b.lifecycle { return a.lifecycle < b.lifecycle }
        if a.updatedAt != b.updatedAt { return a.updatedAt < b.updatedAt }
        return a.version.precedes(b.version)
    }

    public static func lifecycle(of status: RoundStatus, generation: Int = 0) -> Int {
        let stage =
            switch status {
            case .setup: 0
            case .active: 1
            case .awaitingFinalization: 2
            case .completed: 3
            }
        return roundStages * Self.bounded(generation) + stage
    }

    /// The most generations a record may have: a round reopened or a course restored a
    /// million times is no real one, and a bound keeps `4 · generation` from overflowing on
    /// a record nobody checked yet (the server computes stamps before it validates).
    public static let maxGeneration = 1_000_000

    static func bounded(_ generation: Int) -> Int { min(max(0, generation), maxGeneration) }

    /// A round's lifecycle number holds its generation and its stage: compare stages
    /// through this, never the raw number (a reopened round's "active" is 5, not 1).
    public static let roundStages = 4

    public static func courseLifecycle(deleted: Bool, generation: Int = 0) -> Int {
        2 * bounded(generation) + (deleted ? 1 : 0)
    }

    public static func eventLifecycle(discarded: Bool) -> Int { discarded ? 1 : 0 }

    public static func playerLifecycle(_ retirement: PlayerRetirement?) -> Int {
        guard let retirement else { return 0 }
        return retirement.mergedInto == nil ? 1 : 2
    }
}

extension SyncRecord {
    /// nil for score events: they are immutable and never compete.
    public var stamp: ChangeStamp? {
        switch self {
        // A deletion is final: a tombstone outranks any edit, whatever its clock says,
        // as a finish outranks a late "active" copy of a round.
        case .course(let r):
            ChangeStamp(
                lifecycle: ChangeStamp.courseLifecycle(deleted: r.isTombstone, generation: r.generation ?? 0),
                updatedAt: r.updatedAt, version: r.version)
        case .player(let r):
            ChangeStamp(lifecycle: ChangeStamp.playerLifecycle(r.retirement), updatedAt: r.updatedAt, version: r.version)
        case .round(let r):
            ChangeStamp(
                lifecycle: ChangeStamp.lifecycle(of: r.status, generation: r.generation ?? 0), updatedAt: r.updatedAt,
                version: r.version)
        case .scoreEvent: nil
        // A discarded league night stays discarded, as a deleted course stays deleted.
        case .event(let r):
            ChangeStamp(
                lifecycle: ChangeStamp.eventLifecycle(discarded: r.discarded ?? false), updatedAt: r.updatedAt, version: r.version
            )
        // A deleted season stays deleted, the same way.
        case .season(let r):
            ChangeStamp(
                lifecycle: ChangeStamp.eventLifecycle(discarded: r.deleted ?? false), updatedAt: r.updatedAt, version: r.version)
        }
    }
}
