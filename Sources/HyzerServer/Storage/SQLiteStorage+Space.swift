import Foundation
import HyzerKit
import Logging
import SQLiteFaults
import Synchronization

/// Free space on the server's disk, said in the journal before it runs out: a full disk
/// refuses every push (503), and an admin should hear of it while there is time to act.
extension SQLiteStorage {
    /// How often a push may look at the disk: `statvfs` is cheap, but not on every push
    /// of a busy group, and space does not vanish in seconds.
    static let spaceCheckInterval: Duration = .seconds(30)

    /// The warning while less than `Volume.warnBelow` is free (or the disk is read-only),
    /// else nil; as of the last look.
    public var spaceWarning: String? { spaceWatch.withLock { $0.warning } }

    /// Looks at the free space when the last look is `spaceCheckInterval` old (at open, and
    /// after a push), and logs a change: a warning when space runs low, a notice when it
    /// is back. Once per change, not once per push.
    func noteSpace() {
        let now = clock.uptime
        let due = spaceWatch.withLock { watch in
            if let last = watch.checkedAt, now - last < Self.spaceCheckInterval { return false }
            watch.checkedAt = now
            return true
        }
        guard due else { return }
        let warning = Volume(directory.path).warning
        let previous = spaceWatch.withLock { watch in
            defer { watch.warning = warning }
            return watch.warning
        }
        guard warning != previous else { return }
        if let warning {
            logger.warning("\(warning); pushes are refused once it is full")
        } else {
            logger.notice("storage in \(directory.path) has room again")
        }
    }
}
