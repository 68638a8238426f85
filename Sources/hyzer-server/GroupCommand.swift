import ArgumentParser
import Foundation
import HyzerServer
import HyzerSyncProtocol

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Manage groups.",
        subcommands: [Create.self, List.self, BoardLink.self, BoardUnlink.self, Invite.self, SetReopenWindow.self])

    struct Create: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group; prints its admin token (shown once).")
        @Argument(help: "The group's name.") var name: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let (group, token) = try await storage.createGroup(name: name)
            FileHandle.standardError.write(
                Data("created group \"\(group.name)\" (\(group.id)); its admin token follows, keep it safe:\n".utf8))
            print(token)
        }
    }

    /// Issue 35: how long after its finish a round of the group can still be reopened
    /// (at the kiosk with the organizer code, or `hyzer round reopen`). Devices learn it on
    /// their next pull; the server holds every reopening to it.
    struct SetReopenWindow: StorageCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-reopen-window",
            abstract: "Set how many hours after its finish a round can be reopened (default 24; 0: never).")
        @Argument(help: "The group's id or name.") var group: String
        @Argument(help: "Hours, 0 to 8760; fractions allowed.") var hours: Double
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let updated: GroupInfo
            do {
                updated = try await storage.setReopenWindow(groupID: group.id, seconds: hours * 3600)
            } catch let error as StorageError {
                throw Fail(description: error.description)
            }
            print("\(updated.name): a finished round can be reopened for \(GroupCommand.hours(updated.reopenWindow)) h")
        }
    }

    struct List: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "List groups.")
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            for group in try await storage.groups() {
                let devices = try await storage.devices(groupID: group.id)
                print(
                    "\(group.id)  \(group.name)  (\(devices.filter { $0.revokedAt == nil }.count) devices; reopen within "
                        + "\(GroupCommand.hours(group.reopenWindow)) h)")
            }
        }
    }
}

extension GroupCommand {
    /// A reopen window as hours, the way an admin gave it: "24", "1.5".
    static func hours(_ seconds: Double) -> String { String(format: "%g", seconds / 3600) }

    /// The group named by its id or, when no id matches, by its exact name (refused when two
    /// groups share it).
    static func find(_ name: String, in storage: any ServerStorage) async throws -> GroupInfo {
        let groups = try await storage.groups()
        if let byID = groups.first(where: { $0.id == name }) { return byID }
        let named = groups.filter { $0.name == name }
        guard named.count == 1 else {
            throw Fail(
                description: named.isEmpty
                    ? "no group \"\(name)\" (see hyzer-server group list)"
                    : "\(named.count) groups are named \"\(name)\"; give the id (hyzer-server group list)")
        }
        return named[0]
    }

    struct BoardLink: StorageCommand {
        static let configuration = CommandConfiguration(
            commandName: "board-link",
            abstract: "Make a read-only link to the group's live board; prints the URL last.",
            discussion: "Anyone with the link can see the standings and nothing else. Open it on a TV or a phone.")
        @Argument(help: "The group's id or name.") var group: String
        @Option(
            name: .customLong("base-url"),
            help: "How phones reach this server (default: http://HOSTNAME:8630).")
        var baseURL: String?
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let trimmed = try GroupCommand.baseURL(baseURL)
            let token = try await storage.createViewToken(groupID: group.id)
            FileHandle.standardError.write(
                Data("live board of \"\(group.name)\": read-only; `hyzer-server group board-unlink` revokes every link\n".utf8))
            print("\(trimmed)/g/\(group.id)/board#view=\(token)")
        }
    }

    struct Invite: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a phone: prints a link that works once, for 10 minutes (the kiosk shows it as a QR code).")
        @Argument(help: "The group's id or name.") var group: String
        @Option(name: .customLong("base-url"), help: "How phones reach this server (default: http://HOSTNAME:8630).")
        var baseURL: String?
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let base = try GroupCommand.baseURL(baseURL)
            let invite = try await storage.createInvite(
                groupID: group.id, createdBy: "admin", lifetime: DeviceCodePolicy().lifetime)
            FileHandle.standardError.write(
                Data("a phone that opens this joins \"\(group.name)\" as a scorer; it works once, for 10 minutes\n".utf8))
            print(base + invite.path)
        }
    }

    /// `--base-url` checked, without a trailing slash; by default this machine on port 8630.
    static func baseURL(_ given: String?) throws -> String {
        let base = given ?? "http://\(ProcessInfo.processInfo.hostName):8630"
        guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else { throw ValidationError("--base-url must be an http:// or https:// URL, got \"\(base)\"") }
        return base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    struct BoardUnlink: StorageCommand {
        static let configuration = CommandConfiguration(
            commandName: "board-unlink",
            abstract: "Revoke every live-board link and round-summary link of the group (links shared too widely).")
        @Argument(help: "The group's id or name.") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let count = try await storage.revokeViewTokens(groupID: group.id)
            print("revoked \(count) board and summary link\(count == 1 ? "" : "s") of \"\(group.name)\"")
        }
    }
}
