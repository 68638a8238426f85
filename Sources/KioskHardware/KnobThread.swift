#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a detached pthread for one of the knob's loops (input, buzzer timer).
///
/// A dedicated OS thread, not a task: the loops block in poll() and timed waits, which must never
/// tie up Swift concurrency's cooperative pool the rest of the kiosk runs on, and a pthread can be
/// given SCHED_FIFO (`KnobThreadPriority`), which a pool thread must never be.
func spawnThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
        &thread, nil,
        { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
    precondition(result == 0, "pthread_create failed: \(result)")
    pthread_detach(thread)
}
