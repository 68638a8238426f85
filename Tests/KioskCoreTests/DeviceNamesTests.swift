import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 11: a score from a phone says whose phone ("from Nate's phone") on the hole card and
/// in the resolve screen's statements. The machine asks the shell for the names once per
/// device it cannot name; `ShareQRTests` (KioskAppTests) has the shell ask a real server.
@Suite struct DeviceNamesTests {
    static func phoneScore(_ h: inout Harness, strokes: Int = 2) {
        h.record(h.id(1), hole: 1, strokes: strokes, resolution: false, device: "phone-7", reporter: h.id(1))
        h.publish(.remoteSync)
    }

    static func scoredBy(_ h: Harness, row: Int) -> [String] {
        let boxes = h.state.holeCardBoxes(
            Screen.HoleCard(hole: 1, cursor: 0), layout: Layout(viewport: h.state.viewport), now: h.now, minus: "−")
        return boxes?.rows.first { $0.index == row }?.boxes.texts.map(\.text) ?? []
    }

    @Test func aScoreFromAnUnnamedDeviceAsksForNamesOnce() throws {
        var h = try Harness()
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        h.effects = []
        Self.phoneScore(&h)
        #expect(h.effects.filter { $0 == .requestDeviceNames }.count == 1)
        // The kiosk's own scores, and a device already asked about, ask nothing more.
        h.effects = []
        h.record(h.id(0), hole: 1, strokes: 3, resolution: false)
        h.publish(.localScore)
        Self.phoneScore(&h, strokes: 4)
        #expect(!h.effects.contains(.requestDeviceNames))
        #expect(h.state.deviceLabel("phone-7") == "device phone-", "a short id until the server names it")
    }

    @Test func aKioskInNoGroupAsksNobody() throws {
        var h = try Harness()
        Self.phoneScore(&h)
        #expect(!h.effects.contains(.requestDeviceNames))
        // Joining a group with such scores on hand asks then.
        #expect(h.send(.syncChanged(SyncIndicator(state: .idle))) == [.requestDeviceNames])
    }

    @Test func theHoleCardAndTheResolveScreenSayWhosePhone() throws {
        var h = try Harness()
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        Self.phoneScore(&h)
        #expect(!Self.scoredBy(h, row: 1).contains("· from Nate's phone"))
        h.send(.deviceNamesChanged(["phone-7": "Nate's phone", "kiosk": "Kiosk clubhouse"]))
        #expect(Self.scoredBy(h, row: 1).contains("· from Nate's phone"))
        #expect(h.state.deviceLabel("kiosk") == "this kiosk", "the kiosk's own scores stay \"this kiosk\"")

        // The kiosk disagrees on the same cell: the dispute lists both, by device.
        h.events.append(
            ScoreEvent(
                roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 3, reportedBy: h.id(0),
                deviceID: h.device, createdAt: h.clock.date))
        h.publish(.localScore)
        let cell = ScoreCell(participantID: h.id(1), hole: 1)
        let statements = Screen.Resolve(cell: cell, value: 2, origin: .menu).statements(in: h.state)
        #expect(Set(statements.map(\.device)) == ["Nate's phone", "this kiosk"])
    }

    /// Issue 38: a score spoken at a phone and confirmed there says so first: "by voice,
    /// Nate's phone" (the name it carries), and "by voice" from a device nobody has named.
    /// Negative control (by hand): with `input` left out of the attribution, the row said
    /// "from Nate's phone" and this failed.
    @Test func aVoiceScoreSaysItWasSpoken() throws {
        var h = try Harness()
        h.events.append(
            ScoreEvent(
                roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 3, reportedBy: h.id(1),
                deviceID: "phone-7", createdAt: h.clock.date, deviceName: "Nate's phone", input: .voice))
        h.events.append(
            ScoreEvent(
                roundID: h.round!.id, participantID: h.id(2), hole: 1, strokes: 4, reportedBy: h.id(2),
                deviceID: "phone-9", createdAt: h.clock.date, input: .voice))
        h.publish(.remoteSync)
        #expect(Self.scoredBy(h, row: 1).contains("· by voice, Nate's phone"), "\(Self.scoredBy(h, row: 1))")
        #expect(Self.scoredBy(h, row: 2).contains { $0.hasSuffix("· by voice") }, "\(Self.scoredBy(h, row: 2))")
    }
}
