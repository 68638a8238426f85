import KioskCore
import Synchronization

/// The one queue through which every service reaches the screens.
///
/// SDL must be driven from the main thread, and the state machine belongs to that thread
/// too. Services (the knob, sync, the change monitor) run on Swift concurrency's pool and
/// never touch either: they `post` here, and the display loop drains the inbox between
/// frames. `wake` makes a loop that is asleep in `SDL_WaitEventTimeout` return at once.
public final class KioskInbox: Sendable {
    public enum Message: Sendable, Equatable {
        /// Straight to the state machine (a detent, a press, the sync indicator).
        case event(KioskEvent)
        /// The database changed: read it again. `remote` when sync pulled records (the
        /// board animates the reshuffle); `external` when another process or this one
        /// committed (nothing to show when the data turns out unchanged).
        case storeChanged(StoreChange)
        /// Stop the display loop (graceful shutdown).
        case stop
        /// Every service has returned; the main thread may leave.
        case servicesEnded
    }

    public enum StoreChange: Sendable, Equatable { case remote, external }

    private let messages = Mutex<[Message]>([])
    /// Behind a class reference, not as a bare closure in the `Mutex`: a closure stored as
    /// the generic `Value` came back from every `withLock { $0 }` wrapped in two more
    /// reabstraction thunks (the inout round trip writes it back re-wrapped), so each post
    /// grew it by two heap contexts and its call by two stack frames. That was the steady
    /// growth the soak measured (issue 12), and a stack overflow after enough posts.
    private let waker = Mutex<Waker?>(nil)

    private final class Waker: Sendable {
        let wake: @Sendable () -> Void
        init(_ wake: @escaping @Sendable () -> Void) { self.wake = wake }
    }

    public init() {}

    /// Set once the display exists (SDL's user event); before that, posts simply queue.
    public func setWaker(_ wake: @escaping @Sendable () -> Void) {
        waker.withLock { $0 = Waker(wake) }
    }

    public func post(_ message: Message) {
        let queued = messages.withLock { queue in
            // A store change already waiting says it all: the loop reads the store once
            // anyway, so a burst (or a stalled loop) cannot grow the queue.
            if case .storeChanged = message, queue.contains(message) { return false }
            queue.append(message)
            return true
        }
        if queued { waker.withLock { $0 }?.wake() }
    }

    /// Everything posted since the last call, in order.
    public func drain() -> [Message] {
        messages.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
    }
}
