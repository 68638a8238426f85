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
