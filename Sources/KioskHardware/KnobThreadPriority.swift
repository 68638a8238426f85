#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the knob's threads (input and buzzer timer) are scheduled.
///
/// Realtime is the default because it was measured to matter: 10,000 detents replayed under full
/// CPU load ticked at p99 64 µs with SCHED_FIFO against 2.2 ms at normal priority (docs/benchmarks.md,
/// "Knob"). That is only safe because both threads block in poll() or a timed wait between events.
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
