#if canImport(Glibc)
import Glibc
// Not for libgpiod: glibc's time.h is not a module of its own, so Clang counts `timespec` as
// the first module's whose header brought it in (gpiod.h includes time.h), and with
// MemberImportVisibility its members are visible only where that module is imported.
import CGpiod
#elseif canImport(Darwin)
import Darwin
#endif

/// State behind a pthread mutex, with a condition variable whose timed waits run on
/// CLOCK_MONOTONIC: `Synchronization.Mutex` for a thread that must also sleep until woken or
/// until a deadline.
///
/// Kept beside `Mutex` (which cannot wait) only where a dedicated knob thread blocks: the buzzer's
/// timer thread sleeps until the end of a pulse, the simulated backend until an edge is due, and
/// the keyboard backend until a key arrives. Those waits are part of the measured tick latency
/// (docs/benchmarks.md, "Knob"): a thread blocked here is woken by the kernel the moment it is
/// signalled or its deadline passes, at its own SCHED_FIFO priority, the way the GPIO backend's
/// thread is woken from poll(). CLOCK_MONOTONIC, because the Pi sets its wall clock from NTP after
/// boot, often by years: a wall-clock deadline would fire at once or never. It is the base of
/// `SystemClock.uptime`, so `uptimeNanoseconds` are valid deadlines.
final class ConditionLock<State: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only reached with `mutex` held; pthread objects are made for
    // cross-thread use and live at stable heap addresses for the lifetime of this object, which a
    // Swift stored property could not promise.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    init(_ initial: State) {
        state = initial
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the lock held. With `wakingWaiters`, every thread blocked in `wait` then
    /// looks at the state again (before the lock is released, so none misses the change).
    func withLock<Result>(wakingWaiters: Bool = false, _ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            if wakingWaiters { pthread_cond_broadcast(condition) }
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// What `wait`'s body decides each time it looks at the state.
    enum Step<Result> {
        case done(Result)
        /// Sleep until another thread changes the state with `wakingWaiters`.
        case sleep
        /// Sleep until woken or until this CLOCK_MONOTONIC time, in nanoseconds.
        case sleepUntil(nanoseconds: UInt64)
    }

    /// Looks at the state with the lock held until `body` is done, sleeping in between as it asks.
    /// Each look is a separate access to the state, so nothing another thread wrote while this one
    /// slept can be missed.
    func wait<Result>(_ body: (inout State) -> Step<Result>) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            switch body(&state) {
            case .done(let result):
                return result
            case .sleep:
                pthread_cond_wait(condition, mutex)
            case .sleepUntil(let deadline):
                var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &time)
            }
        }
    }
}
