import HyzerKit
import Synchronization

/// An output line the buzzer drives: a GPIO line on the kiosk, a recorder in tests.
public protocol OutputLine: AnyObject, Sendable {
    /// Sets the line. Runs on the input thread under the buzzer's lock, so it must not block.
    func drive(_ on: Bool)
}

/// A line that sounds the buzzer when low: on is driven low, off high.
public final class ActiveLowOutputLine: OutputLine {
    public let line: any OutputLine
    public init(_ line: any OutputLine) { self.line = line }
    public func drive(_ on: Bool) { line.drive(!on) }
}

/// For machines without a buzzer.
public final class NullOutputLine: OutputLine {
    public init() {}
    public func drive(_ on: Bool) {}
}

/// A fake output line that records when it was driven, on the given clock (a `ManualClock` for
/// replays on trace time).
public final class RecordingOutputLine: OutputLine {
    public struct Change: Sendable, Hashable {
        public var on: Bool
        public var atNs: UInt64
    }

    private let clock: any HyzerClock
    private let recorded: Mutex<[Change]>

    public init(clock: any HyzerClock = SystemClock(), expectedChanges: Int = 0) {
        self.clock = clock
        var changes: [Change] = []
        changes.reserveCapacity(expectedChanges)
        recorded = Mutex(changes)
    }

    public func drive(_ on: Bool) {
        let now = clock.uptimeNanoseconds
        recorded.withLock { $0.append(Change(on: on, atNs: now)) }
    }

    public var changes: [Change] { recorded.withLock { $0 } }

    /// The times the line was switched on: one per pulse.
    public var pulseStarts: [UInt64] { changes.filter(\.on).map(\.atNs) }
}
