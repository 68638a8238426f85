import Foundation
import HyzerKit

/// The order in which changes of one mutable record win, the same on the server and on
/// every device so all of them converge on the same value whatever order changes arrive in.
///
/// 1. A later lifecycle stage wins. Rounds: setup < active < awaitingFinalization <
///    completed; a round never moves back, so a late "active" copy can never undo a finish.
///    Courses: in use < deleted; an edit made offline never brings a deleted course back.
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

    public static func lifecycle(of status: RoundStatus) -> Int {
        switch status {
        case .setup: 0
        case .active: 1
        case .awaitingFinalization: 2
        case .completed: 3
        }
    }
}

extension SyncRecord {
    /// nil for score events: they are immutable and never compete.
    public var stamp: ChangeStamp? {
        switch self {
        // A deletion is final: a tombstone outranks any edit, whatever its clock says,
        // as a finish outranks a late "active" copy of a round.
        case .course(let r): ChangeStamp(lifecycle: r.isTombstone ? 1 : 0, updatedAt: r.updatedAt, version: r.version)
        case .player(let r): ChangeStamp(updatedAt: r.updatedAt, version: r.version)
        case .round(let r):
            ChangeStamp(lifecycle: ChangeStamp.lifecycle(of: r.status), updatedAt: r.updatedAt, version: r.version)
        case .scoreEvent: nil
        }
    }
}
