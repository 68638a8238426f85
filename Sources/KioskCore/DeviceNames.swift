import Foundation
import HyzerKit

/// Who made a score, by device: "from Nate's phone" (issue 11). Devices know each other only
/// by id; the names live on the group server (`GET /v1/devices`). The machine asks the shell
/// for them when a score from a device it cannot name shows up, once per such device, and
/// keeps what the shell reports. Without a name a device reads as its short id.
public struct DeviceNames: Sendable, Equatable {
    /// Device id → the name it enrolled with ("Nate's phone", "Kiosk clubhouse").
    public private(set) var names: [String: String] = [:]
    /// Ids already asked about, named or not: a device the server does not know (revoked
    /// and gone, or another group's) is not asked about on every reload.
    private var asked: Set<String> = []

    public init() {}

    public subscript(id: String) -> String? { names[id] }

    /// The ids among `ids` worth asking the server about, now marked as asked.
    mutating func unknown(in ids: some Sequence<String>, except own: String?) -> Set<String> {
        let fresh = Set(ids).subtracting(asked).subtracting(names.keys).subtracting(own.map { [$0] } ?? [])
        asked.formUnion(fresh)
        return fresh
    }

    mutating func update(_ reported: [String: String]) {
        names.merge(reported) { _, new in new }
        asked.formUnion(reported.keys)
    }
}

extension KioskState {
    /// After new data: ask for the names of devices behind the round's scores, when the
    /// kiosk is in a group (only the server knows them).
    mutating func askForDeviceNames() -> [KioskEffect] {
        guard !isInNoGroup, let round = data.round else { return [] }
        return deviceNames.unknown(in: round.events.lazy.map(\.deviceID), except: data.deviceID).isEmpty
            ? [] : [.requestDeviceNames]
    }

    /// "this kiosk", "Nate's phone", or a device's short id.
    public func deviceLabel(_ id: String) -> String {
        if id == data.deviceID { return "this kiosk" }
        return deviceNames[id] ?? "device " + id.prefix(6)
    }

    /// The device a score came from: this kiosk, else the name the score carries, else the
    /// server's name for the device, else its short id.
    public func deviceLabel(of event: ScoreEvent) -> String {
        if event.deviceID == UDisc.importDeviceID { return "UDisc (imported)" }
        return event.deviceID == data.deviceID ? "this kiosk" : event.deviceName ?? deviceLabel(event.deviceID)
    }

    /// The person who entered a score, when one did and it is known: a score typed at a
    /// shared device (the kiosk) has none.
    public func reporter(of event: ScoreEvent) -> String? {
        event.reportedBy == ScoreEvent.nobody ? nil : data.name(of: event.reportedBy)
    }

    /// Where a score came from, as the hole card says it (issue 14): "at the kiosk" for this
    /// kiosk's own; "from Nate's phone" for another device's, with the person when known and
    /// not already in the device's name ("from the club tablet, by Jake"); "scored by Jake"
    /// when only the person is known. The player's own statement from their own unnamed
    /// device says nothing more than the score. A score spoken at a phone (issue 38) says
    /// so first: "by voice, Nate's phone".
    public func attribution(of event: ScoreEvent, for participant: UUID) -> String? {
        if event.deviceID == data.deviceID { return "at the kiosk" }
        if event.deviceID == UDisc.importDeviceID { return "imported from UDisc" }
        let person = reporter(of: event).flatMap { event.reportedBy == participant ? nil : $0 }
        let voice = event.input == .voice
        guard let device = event.deviceName ?? deviceNames[event.deviceID] else {
            return person.map { voice ? "by voice, by \($0)" : "scored by \($0)" } ?? (voice ? "by voice" : nil)
        }
        guard let person, !device.localizedCaseInsensitiveContains(person) else {
            return voice ? "by voice, \(device)" : "from \(device)"
        }
        return voice ? "by voice, \(device), by \(person)" : "from \(device), by \(person)"
    }
}
