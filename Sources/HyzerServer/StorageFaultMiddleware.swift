import Hummingbird
import SQLiteFaults

/// A storage fault (a full or read-only disk, a locked database) is the server's state, not
/// a bug in the request: 503 with its one line ("Storage is full: …"), so a device keeps
/// the batch in its outbox and an admin reading the answer or the log knows what to do.
struct StorageFaultMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let fault as StorageFault {
            throw HTTPError(.serviceUnavailable, message: fault.description)
        }
    }
}
