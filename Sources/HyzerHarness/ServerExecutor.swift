import Foundation
import Synchronization

/// Threads of its own for the group servers a process runs in itself (`RunningServer`).
///
/// A test process runs its server and its clients side by side, and Swift Testing runs the
/// suites at once on the cooperative pool, which has one thread a core (two here). A
/// synchronous test (drawing 400 frames, thousands of SQLite writes) holds a pool thread for
/// seconds; two of them at once left an in-process server with no thread to answer on, and
/// on a busy machine its clients' 10-second deadlines passed with the server idle
/// (`HTTPClientError.deadlineExceeded`, issue 33's suite under load). The server's tasks
/// prefer these threads instead (`Task(executorPreference:)`; the child tasks Hummingbird
/// and the service group start for connections inherit the preference), so what the
/// pool's other work does cannot stop a server from answering. A real `hyzer-server` has
/// its process to itself and runs on the pool as usual.
public final class ServerExecutor: TaskExecutor, Sendable {
    /// Shared by every in-process server: they answer requests, which rarely block.
    public static let shared = ServerExecutor(threads: 4)

    private let jobs = Mutex<[UnownedJob]>([])
    /// Counts the jobs waiting; each worker takes one per signal (the threads are not the
    /// pool's, so waiting on it stops no task).
    private let ready = DispatchSemaphore(value: 0)

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "hyzer-server-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    private func work() -> Never {
        while true {
            ready.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
