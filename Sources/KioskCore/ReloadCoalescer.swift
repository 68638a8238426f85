/// Store changes noticed faster than the board can show them, turned into at most one
/// reload per interval: the first change after a quiet spell is read at once, the rest of
/// a burst (ten remote scores a second) together when the interval is over. Each reload
/// re-reads the whole round and may start a reshuffle, so a reload per change kept the
/// board animating and the CPU busy without showing anything sooner than a person can read.
///
/// A burst that goes on (`burstAfter` reloads in a row that each waited out the interval)
/// is read every `burstInterval` instead: a board reshuffling every second for minutes is
/// hard to follow from 3 m, and each reshuffle is a second of frames. Both stay well inside
/// NFR2's 5 s; the first quiet spell longer than the interval ends the burst.
public struct ReloadCoalescer<Change: Hashable & Sendable>: Sendable, Equatable {
    public let interval: Millis
    public let burstInterval: Millis
    public let burstAfter: Int
    /// The kinds of change noticed since the last reload.
    public private(set) var pending: Set<Change> = []
    public private(set) var lastReload: Millis?
    /// Reloads in a row that had to wait for the interval (changes kept coming).
    public private(set) var waitedReloads = 0

    public init(
        interval: Millis = MotionTokens.reloadInterval, burstInterval: Millis = MotionTokens.burstReloadInterval,
        burstAfter: Int = MotionTokens.burstAfterReloads
    ) {
        self.interval = interval
        self.burstInterval = max(interval, burstInterval)
        self.burstAfter = burstAfter
    }

    /// The interval in force: longer once a burst has gone on.
    public var currentInterval: Millis { waitedReloads >= burstAfter ? burstInterval : interval }

    public mutating func noticed(_ change: Change) { pending.insert(change) }

    /// When the loop must wake to reload (nil: nothing pending).
    public var dueAt: Millis? {
        guard !pending.isEmpty else { return nil }
        return lastReload.map { $0 + currentInterval } ?? .min
    }

    /// The changes to read now, if the reload is due; the interval starts again.
    public mutating func take(now: Millis) -> Set<Change>? {
        guard let due = dueAt, now >= due else { return nil }
        defer { pending = [] }
        // A reload read within the interval it waited for (plus a frame's slack for the
        // loop's wake-up) continues a burst; one after a longer quiet spell starts afresh.
        if let last = lastReload, now - last <= currentInterval + MotionTokens.frameInterval {
            waitedReloads += 1
        } else {
            waitedReloads = 0
        }
        lastReload = now
        return pending
    }
}
