import Synchronization

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
