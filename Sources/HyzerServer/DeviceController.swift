import Foundation
import Hummingbird
import HyzerSyncProtocol
import Logging

/// Enrollment and revocation, with the group admin token.
struct DeviceController<Storage: SyncStorage> {
    let storage: Storage

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("devices", use: enroll)
        group.get("devices", use: list)
        group.delete("devices/:deviceID", use: revoke)
        group.delete("devices/:deviceID/player", use: release)
    }

    @Sendable func enroll(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let body = try await JSONBody.decode(EnrollRequest.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        guard let group = try await storage.group(id: admin.groupID) else {
            throw HTTPError(.unauthorized, message: "group no longer exists")
        }
        do {
            let token = try await storage.enroll(groupID: admin.groupID, deviceID: body.deviceID, name: body.name)
            context.logger.info(
                "device enrolled", metadata: ["group": "\(group.id)", "device": "\(body.deviceID)", "name": "\(body.name)"])
            return try JSONBody.response(
                EnrollResponse(
                    groupID: group.id, groupName: group.name, deviceID: body.deviceID,
                    deviceToken: token, epoch: storage.epoch), status: .created)
        } catch let error as StorageError {
            context.logger.notice(
                "enrollment refused", metadata: ["group": "\(group.id)", "device": "\(body.deviceID)", "reason": "\(error)"])
            throw error.http
        }
    }

    /// The admin's list, and every device's: a device of the group may name the others
    /// (attribution, "from Nate's phone"); tokens are never listed.
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        return try JSONBody.response(
            DeviceList(groupID: principal.groupID, devices: try await storage.devices(groupID: principal.groupID)))
    }

    @Sendable func revoke(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let deviceID = try context.parameters.require("deviceID")
        do {
            try await storage.revoke(groupID: admin.groupID, deviceID: deviceID)
        } catch let error as StorageError { throw error.http }
        context.logger.info("device revoked", metadata: ["group": "\(admin.groupID)", "device": "\(deviceID)"])
        return Response(status: .noContent)
    }

    /// The admin frees the player a device plays as (a phone lent to someone else, a claim
    /// made by mistake); the device stays enrolled. Admin only: a phone cannot take
    /// another's player by releasing it first.
    @Sendable func release(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let deviceID = try context.parameters.require("deviceID")
        let released: DeviceInfo
        do {
            released = try await storage.releasePlayer(groupID: admin.groupID, deviceID: deviceID)
        } catch let error as StorageError { throw error.http }
        context.logger.info(
            "player released",
            metadata: [
                "group": "\(admin.groupID)", "device": "\(deviceID)",
                "player": "\(released.playerID?.uuidString.lowercased() ?? "")",
            ])
        return Response(status: .noContent)
    }
}
