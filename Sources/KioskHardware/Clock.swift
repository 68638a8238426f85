#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of CLOCK_MONOTONIC-style nanoseconds: the time base the kernel stamps GPIO events in
/// (Linux 5.7+), so edge timestamps and "now" can be compared directly.
public protocol MonotonicClock: Sendable {
    var nowNs: UInt64 { get }
}

public struct SystemMonotonicClock: MonotonicClock {
    public init() {}

    public var nowNs: UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// A clock that only moves when told to: replays "as fast as possible" run on trace time with it.
public final class VirtualClock: MonotonicClock, @unchecked Sendable {
    // @unchecked: the value is only touched under `lock`.
    private let lock = ConditionLock()
    private var value: UInt64

    public init(startNs: UInt64 = 0) { value = startNs }

    public var nowNs: UInt64 { lock.withLock { value } }

    /// Moves the clock forward; it never goes back.
    public func advance(to ns: UInt64) {
        lock.withLock { value = max(value, ns) }
    }
}

/// A pthread mutex with a condition variable on CLOCK_MONOTONIC, so timed waits are immune to
/// wall-clock changes (the Pi sets its clock from NTP after boot, often by years).
final class ConditionLock: @unchecked Sendable {
    // @unchecked: pthread objects are designed for cross-thread use; they live at stable heap
    // addresses for the lifetime of this object.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        #if os(Linux)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits (lock held) until signalled.
    func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits (lock held) until signalled or until the monotonic time `deadlineNs`.
    func wait(untilNs deadlineNs: UInt64) {
        var ts = timespec(
            tv_sec: Int(deadlineNs / 1_000_000_000),
            tv_nsec: Int(deadlineNs % 1_000_000_000)
        )
        pthread_cond_timedwait(cond, mutex, &ts)
    }

    func signal() { pthread_cond_signal(cond) }
    func broadcast() { pthread_cond_broadcast(cond) }
}

/// How the knob's threads (input and buzzer timer) are scheduled.
public enum KnobThreadPriority: Sendable, Hashable {
    /// Ordinary time-sharing; needs no privileges. Under full CPU load the threads then wait
    /// for a render thread's time slice now and then (a few ms at worst).
    case normal
    /// SCHED_FIFO at this priority (1–99): the threads preempt the renderer as soon as an edge
    /// arrives. Needs root, CAP_SYS_NICE, or `LimitRTPRIO=` in the systemd unit; without it the
    /// threads stay `normal` and a warning is logged. Both threads block in poll() or a timed
    /// wait between events, so they cannot starve the rest of the system.
    case realtime(Int32)

    /// What the kiosk uses: just above every normal thread, far below kernel threads that matter.
    public static let kioskDefault = KnobThreadPriority.realtime(10)

    /// Applies the priority to the calling thread; returns the errno if refused.
    func apply() -> Int32? {
        #if os(Linux)
        guard case .realtime(let priority) = self else { return nil }
        var param = sched_param()
        param.sched_priority = max(1, min(priority, 99))
        let result = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param)
        return result == 0 ? nil : result
        #else
        return nil
        #endif
    }
}

/// Starts a detached pthread. A dedicated OS thread, not a task: the input and buzzer loops block
/// in poll() and timed waits, which must never tie up the Swift concurrency pool the UI runs on.
func spawnThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}
