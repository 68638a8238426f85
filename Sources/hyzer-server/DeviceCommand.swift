import ArgumentParser
import Foundation
import HyzerServer
import HyzerSyncProtocol

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "List, revoke, approve or deny a group's devices, or release their players.",
        subcommands: [List.self, Revoke.self, Release.self, Approve.self, Deny.self])

    struct List: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a group's devices, and the player each phone plays as.")
        @Argument(help: "Group id.") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            for d in try await storage.devices(groupID: group) {
                // The player last, after the columns scripts already read.
                let player = d.playerID.map { "  (plays as \(d.playerName ?? $0.uuidString.lowercased()))" } ?? ""
                print("\(d.deviceID)  \(d.name)  \(d.revokedAt == nil ? "active" : "revoked")\(player)")
            }
        }
    }

    struct Revoke: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a device and its token.")
        @Argument(help: "Group id.") var group: String
        @Argument(help: "Device id.") var device: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do { try await storage.revoke(groupID: group, deviceID: device) } catch { throw Fail(description: "\(error)") }
            print("revoked \(device)")
        }
    }

    struct Release: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "Free the player a phone plays as, so another phone can claim it; the phone stays in the group.")
        @Argument(help: "Group id.") var group: String
        @Argument(help: "Device id (hyzer-server device list).") var device: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do {
                let released = try await storage.releasePlayer(groupID: group, deviceID: device)
                let player = released.playerName ?? released.playerID?.uuidString.lowercased() ?? "its player"
                print("released \(player) from \(released.name) (\(device)); another phone may claim them now")
            } catch let error as StorageError {
                throw Fail(description: "cannot release \(device): \(error)")
            }
        }
    }
}

extension DeviceCommand {
    /// The admin's half of joining from the kiosk's screen: the kiosk shows CODE.
    struct Approve: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Let a device join a group with the code its screen shows (hyzer-server device approve BCDF-GHJK --group G).")
        @Argument(help: "The code on the device's screen (XXXX-XXXX; case and dash do not matter).") var code: String
        @Option(help: "Group id (hyzer-server group list).") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do {
                let approved = try await storage.approveDevice(userCode: code, groupID: group)
                print("approved \(approved.name) (\(approved.deviceID)); it joins the group at its next poll")
            } catch let error as DeviceApprovalError {
                throw Fail(description: "cannot approve \(code): \(error)")
            }
        }
    }

    struct Deny: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a device's code: it will not join.")
        @Argument(help: "The code on the device's screen.") var code: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do { try await storage.denyDevice(userCode: code) } catch let error as DeviceApprovalError {
                throw Fail(description: "cannot deny \(code): \(error)")
            }
            print("denied \(code)")
        }
    }
}
