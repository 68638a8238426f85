import ServiceLifecycle
import Synchronization

/// The display loop's seat in the service group.
///
/// SDL is driven from the main thread, and on Linux the main actor does not run there
/// (the main queue is serviced by a pool thread once `dispatch_main` parks the main
/// thread), so the loop cannot be a task. Instead the main thread runs `DisplayLoop`
/// itself, and this service stands for it in the group: it ends when the loop ends (so a
/// closed window shuts the group down), and it turns the group's graceful shutdown
/// (SIGTERM, SIGINT) into a `.stop` in the loop's inbox.
public struct DisplayService: Service {
    let inbox: KioskInbox
    let ended: Latch

    public func run() async {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await ended.wait()
            } onGracefulShutdown: { [inbox] in
                inbox.post(.stop)
            }
        } onCancel: { [inbox] in
            inbox.post(.stop)
        }
    }
}

/// A one-shot latch between the main thread and a task: "the loop ended" (the display
/// service awaits it), "the first frame is on screen" (the services start on it).
final class Latch: Sendable {
    private struct State {
        var signaled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.signaled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Bool in
                if !state.signaled { state.waiters.append(continuation) }
                return state.signaled
            }
            if already { continuation.resume() }
        }
    }
}
