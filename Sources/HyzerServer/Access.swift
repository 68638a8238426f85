import Foundation
import HTTPTypes
import Hummingbird
import HyzerSyncProtocol
import Synchronization

/// What a sync request says about who sends it: its bearer token and the device it claims
/// to be (`X-Hyzer-Device`). Push and pull hand this to the storage, which checks it in the
/// same transaction as the write or the read (one trip to the database, not two, on the
/// path of every score from one device to another).
public struct DeviceClaim: Sendable, Hashable {
    public var token: String
    /// The `X-Hyzer-Device` header; nil when the request has none.
    public var device: String?

    public init(token: String, device: String?) {
        self.token = token
        self.device = device
    }
}

/// Why a request is refused before anything is read or written; the order of the cases is
/// the order of the checks, so a request with several faults always gets the same answer.
public enum AccessRefusal: Error, Equatable, Sendable {
    case unauthenticated
    case notAdmin
    case notDevice
    case missingDeviceHeader
    case otherDevice(claimed: String)

    var http: HTTPError {
        switch self {
        case .unauthenticated: HTTPError(.unauthorized, message: "missing, unknown or revoked token")
        case .notAdmin: HTTPError(.forbidden, message: "this needs the group's admin token")
        case .notDevice: HTTPError(.forbidden, message: "this needs a device token (enroll the device first)")
        case .missingDeviceHeader: HTTPError(.badRequest, message: "missing \(SyncProtocol.deviceHeader) header")
        case .otherDevice(let claimed):
            HTTPError(.forbidden, message: "this token belongs to another device than \(claimed)")
        }
    }
}

extension Principal {
    /// The admin token of its group, or a refusal.
    func requireAdmin() throws(AccessRefusal) -> Principal {
        guard role == .admin else { throw .notAdmin }
        return self
    }

    /// A device token, used by the device it was issued to: a device claiming another's id
    /// is refused. Returns the device's id.
    func requireDevice(claimed: String?) throws(AccessRefusal) -> String {
        guard role == .device, let deviceID else { throw .notDevice }
        guard let claimed else { throw .missingDeviceHeader }
        guard claimed == deviceID else { throw .otherDevice(claimed: claimed) }
        return deviceID
    }
}

extension Optional where Wrapped == Principal {
    /// An unknown or revoked token is refused first, whatever else the request got wrong.
    func requireDevice(claimed: String?) throws(AccessRefusal) -> (principal: Principal, deviceID: String) {
        guard let principal = self else { throw .unauthenticated }
        return (principal, try principal.requireDevice(claimed: claimed))
    }
}

/// Tokens that recently authenticated as a device, by hash. Never a grant: the storage
/// still checks every push in its transaction (a revoked token is refused there). It only
/// decides *when* the check runs: a token seen valid is checked in the push's own
/// transaction, after its body is decoded; any other token is checked first, so a request
/// with an unknown token is refused without its body ever being parsed.
final class RecentDeviceTokens: Sendable {
    private let hashes = Mutex<Set<Data>>([])
    /// A group has a handful of devices; a server hosting many groups a few thousand. When
    /// full it starts over, which costs each device one early check.
    let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    func contains(_ token: String) -> Bool {
        let hash = Tokens.hash(token)
        return hashes.withLock { $0.contains(hash) }
    }

    func insert(_ token: String) {
        let hash = Tokens.hash(token)
        hashes.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0.insert(hash)
        }
    }

    func remove(_ token: String) {
        let hash = Tokens.hash(token)
        _ = hashes.withLock { $0.remove(hash) }
    }
}
