import Foundation
import HTTPTypes
import Hummingbird
import HyzerSyncProtocol
import Logging

/// The 400 answer to a poll that gets no token, with RFC 8628's error code beside the
/// message, so a device acts on `code` and shows `message`.
struct DeviceTokenError: HTTPResponseError {
    let refusal: DeviceTokenRefusal
    let message: String

    var status: HTTPResponse.Status { .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        // RFC 8628 §3.5 (via RFC 6749 §5.2): a token answer is never cached.
        try JSONBody.uncached(ErrorResponse(error: .init(message: message, code: refusal.rawValue)), status: status)
    }
}

extension DeviceApprovalError {
    var http: HTTPError {
        switch self {
        case .malformed: HTTPError(.badRequest, message: description)
        case .unknown, .unknownGroup: HTTPError(.notFound, message: description)
        case .expired, .alreadyApproved, .alreadyDenied: HTTPError(.conflict, message: description)
        case .otherGroup: HTTPError(.forbidden, message: description)
        case .deviceTaken: HTTPError(.conflict, message: description)
        case .tooManyPending: HTTPError(.tooManyRequests, message: description)
        }
    }
}

/// Joining a group from a device that cannot type: the device asks for codes and polls
/// without a token (it has none yet); the admin approves with the group's admin token.
struct DeviceAuthorizationController<Storage: DeviceAuthorizationStorage> {
    let storage: Storage
    let policy: DeviceCodePolicy

    /// The device's two routes: no token, so no `AuthMiddleware`.
    func addDeviceRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("device/authorize", use: authorize)
        group.post("device/token", use: token)
    }

    func addAdminRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("device/approve", use: approve)
    }

    @Sendable func authorize(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(
            DeviceAuthorizationRequest.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        do {
            let codes = try await storage.authorizeDevice(deviceID: body.deviceID, name: body.name, policy: policy)
            context.logger.info(
                "device asks to join",
                metadata: ["device": "\(body.deviceID)", "name": "\(body.name)", "code": "\(codes.userCode)"])
            return try JSONBody.response(codes)
        } catch let error as StorageError {
            throw error.http
        } catch let error as DeviceApprovalError {
            throw error.http
        }
    }

    @Sendable func token(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(DeviceTokenRequest.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        let outcome: DeviceTokenOutcome
        do {
            outcome = try await storage.exchangeDeviceCode(body.deviceCode)
        } catch let error as StorageError {
            throw error.http
        }
        switch outcome {
        case .enrolled(let enrolled):
            context.logger.info(
                "device joined", metadata: ["group": "\(enrolled.groupID)", "device": "\(enrolled.deviceID)"])
            return try JSONBody.uncached(enrolled)
        case .refused(let refusal, let message):
            throw DeviceTokenError(refusal: refusal, message: message)
        }
    }

    @Sendable func approve(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let body = try await JSONBody.decode(DeviceApprovalRequest.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        do {
            if let named = body.groupID, named != admin.groupID { throw DeviceApprovalError.otherGroup }
            let approved = try await storage.approveDevice(userCode: body.userCode, groupID: admin.groupID)
            context.logger.info(
                "device approved", metadata: ["group": "\(approved.groupID)", "device": "\(approved.deviceID)"])
            return try JSONBody.response(approved)
        } catch let error as DeviceApprovalError {
            context.logger.notice("device approval refused", metadata: ["group": "\(admin.groupID)", "reason": "\(error)"])
            throw error.http
        }
    }
}
