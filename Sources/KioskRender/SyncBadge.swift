import Foundation
import KioskCore

/// What the sync badge shows for an indicator at a given time: all of the indicator a
/// frame draws. A pull stamps a new time and turns the indicator "syncing" and back, ten
/// times a second in a burst, while the badge mostly reads "Synced just now" in the same
/// colour before and after; the display loop compares badges, not indicators, to know
/// whether such a change needs a frame.
public struct SyncBadge: Sendable, Equatable {
    public var text: String
    public var color: RGB
    /// Records the server refused for good, shown beside it.
    public var refused: Int

    /// Nil when sync is not set up: no badge.
    public init?(_ sync: SyncIndicator, wallClock: Date) {
        switch sync.state {
        case .disabled: return nil
        case .idle, .syncing:
            color = sync.state == .syncing ? Palette.accent : Palette.textSecondary
            if let last = sync.lastSynced {
                let minutes = Int(wallClock.timeIntervalSince(last) / 60)
                text = minutes < 1 ? "Synced just now" : "Synced \(minutes) min ago"
            } else {
                text = sync.state == .syncing ? "Syncing…" : "Not synced yet"
            }
        case .offline: (text, color) = ("Offline · scores saved here", Palette.overPar)
        case .error: (text, color) = ("Sync error: \(sync.detail ?? "see the log")", Palette.wayOver)
        }
        refused = sync.refused
    }
}
