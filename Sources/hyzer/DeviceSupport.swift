import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

/// Lookups shared by the device commands: friendly about ids and names.
enum DeviceLookup {
    /// A round id, or "current" for the newest active round.
    static func round(_ text: String, in db: HyzerDatabase) throws -> Round {
        if text.lowercased() == "current" || text.lowercased() == "active" {
            guard let round = try db.read(.activeRounds).first else {
                throw CommandFailure(message: "no active round in \(db.files.path)")
            }
            return round
        }
        guard let id = UUID(uuidString: text) else {
            throw CommandFailure(message: "\"\(text)\" is not a round id (a UUID, or \"current\" for the newest active round)")
        }
        guard let round = try db.read(.round(id: id)) else {
            throw CommandFailure(
                message: "round \(text) is not in \(db.files.path); run `hyzer sync` if another device created it")
        }
        return round
    }

    /// A registered player by id, else by name (case-insensitive).
    static func player(_ text: String, in players: [Player]) throws -> Player {
        if let id = UUID(uuidString: text) {
            guard let player = players.first(where: { $0.id == id }) else {
                throw CommandFailure(message: "no registered player has the id \(text)")
            }
            return player
        }
        let wanted = text.trimmingCharacters(in: .whitespaces)
        guard let match = players.first(where: { $0.displayName.caseInsensitiveCompare(wanted) == .orderedSame }) else {
            let names = players.map(\.displayName).joined(separator: ", ")
            throw CommandFailure(
                message: "no registered player is called \"\(text)\"" + (names.isEmpty ? "" : " (players: \(names))"))
        }
        return match
    }

    /// A course by id, else by name (case-insensitive; two courses of one name need the id).
    static func course(_ text: String, in db: HyzerDatabase) throws -> Course {
        let courses = try db.read(.courses)
        if let id = UUID(uuidString: text) {
            guard let course = courses.first(where: { $0.id == id }) else {
                throw CommandFailure(message: "no course has the id \(text) (hyzer course list)")
            }
            return course
        }
        let wanted = text.trimmingCharacters(in: .whitespaces)
        let matches = courses.filter { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
        guard matches.count == 1 else {
            if matches.isEmpty {
                throw CommandFailure(
                    message: "no course is called \"\(text)\" (courses: \(courses.map(\.name).joined(separator: ", ")))")
            }
            throw CommandFailure(
                message: "\(matches.count) courses are called \"\(text)\"; use the id: "
                    + matches.map(\.id.uuidString).joined(separator: ", "))
        }
        return matches[0]
    }

    /// A participant id, or a name (case-insensitive; a unique first name is enough).
    static func participant(_ text: String, in round: Round) throws -> Participant {
        if let id = UUID(uuidString: text) {
            guard let p = round.participant(id) else { throw CommandFailure(message: "participant \(text) is not in this round") }
            return p
        }
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        let exact = round.participants.filter { $0.name.lowercased() == wanted }
        if exact.count == 1 { return exact[0] }
        let first = round.participants.filter { $0.name.lowercased().split(separator: " ").first.map(String.init) == wanted }
        let matches = exact.isEmpty ? first : exact
        let names = round.participants.map(\.name).joined(separator: ", ")
        guard !matches.isEmpty else {
            throw CommandFailure(message: "nobody called \"\(text)\" plays in this round (players: \(names))")
        }
        guard matches.count == 1 else {
            throw CommandFailure(
                message: "\"\(text)\" matches \(matches.count) participants; use the id: "
                    + matches.map { "\($0.name) \($0.id.uuidString)" }.joined(separator: ", "))
        }
        return matches[0]
    }
}

/// After a local write: push it now when the device is enrolled. The score is already
/// saved, so a failure here is a warning and the exit code stays 0.
func syncAfterLocalWrite(_ db: HyzerDatabase, skip: Bool) async {
    guard !skip else { return }
    guard let link = try? ServerLink.load(from: db.files) else {
        print("saved locally (this device is not enrolled with a group server)")
        return
    }
    // The score is safe already; do not keep a person waiting long on a dead network.
    var options = SyncEngine.Options()
    options.requestTimeout = 4
    options.liveUpdates = false
    let engine = SyncEngine(database: db, link: link, options: options)
    do {
        let report = try await engine.syncNow()
        print(
            "synced with \(link.serverURL): pushed \(report.created) new, pulled \(report.pulled)"
                + (report.rejected.isEmpty ? "" : "; REJECTED: " + report.rejected.joined(separator: "; ")))
    } catch {
        print("saved locally; not synced yet (\(error)); `hyzer sync` retries")
    }
}
