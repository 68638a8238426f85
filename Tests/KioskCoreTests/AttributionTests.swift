import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 14 item 4: the hole card says where each score came from, the same on every
/// device: the device (by the name the score carries, else the server's name for it) and,
/// where known, the person.
@Suite struct AttributionTests {
    func event(
        _ h: Harness, device: String, name: String?, by reporter: UUID, for participant: Int = 1
    ) -> ScoreEvent {
        ScoreEvent(
            roundID: h.round!.id, participantID: h.players[participant].id, hole: 1, strokes: 3,
            reportedBy: reporter, deviceID: device, createdAt: h.clock.date, deviceName: name)
    }

    @Test func eachSourceIsSaidAsItIs() throws {
        var h = try Harness(players: 3)
        h.send(.deviceNamesChanged(["tablet-1": "Club tablet"]))
        let mike = h.players[1].id
        let jake = h.players[2].id
        let cases: [(ScoreEvent, String?)] = [
            // Typed at this kiosk: nobody in particular, credited to the kiosk.
            (event(h, device: h.device, name: "Clubhouse kiosk", by: ScoreEvent.nobody), "at the kiosk"),
            // Mike's own phone, Mike's own score: the phone is enough.
            (event(h, device: "phone-1", name: "Mike's phone", by: mike), "from Mike's phone"),
            // Jake's phone scoring Mike: the phone's name already says whose.
            (event(h, device: "phone-2", name: "Jake's phone", by: jake), "from Jake's phone"),
            // A shared tablet Jake used: the device, then the person.
            (event(h, device: "tablet-1", name: nil, by: jake), "from Club tablet, by Jake"),
            // A device nobody can name, with a known person.
            (event(h, device: "old-device", name: nil, by: jake), "scored by Jake"),
            // A phone not in the round, nobody known: the phone alone.
            (event(h, device: "phone-3", name: "Visitor's phone", by: ScoreEvent.nobody), "from Visitor's phone"),
            // A round brought in from UDisc (issue 37 item 5).
            (event(h, device: UDisc.importDeviceID, name: "UDisc", by: ScoreEvent.nobody), "imported from UDisc"),
        ]
        for (scored, expected) in cases {
            #expect(h.state.attribution(of: scored, for: mike) == expected, "\(scored.deviceID)")
        }
    }

    /// On the hole card itself, under the score's owner.
    @Test func theHoleCardShowsIt() throws {
        var h = try Harness(players: 2)
        h.events = [event(h, device: "phone-1", name: "Nate's phone", by: h.players[0].id)]
        h.publish(.remoteSync)
        h.send(.pressed)  // the hole card
        guard case .holeCard(let card) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        let layout = Layout(viewport: Viewport(width: 1280, height: 720))
        let boxes = try #require(h.state.holeCardBoxes(card, layout: layout, now: h.now, minus: "-"))
        let texts = boxes.rows.flatMap { $0.boxes.texts.map(\.text) }
        #expect(texts.contains { $0.contains("from Nate's phone") }, "\(texts)")

        // A score typed here says so.
        h.score(row: 0, delta: 0)
        let again = try #require(h.state.holeCardBoxes(card, layout: layout, now: h.now, minus: "-"))
        #expect(again.rows.flatMap { $0.boxes.texts.map(\.text) }.contains { $0.contains("at the kiosk") })
    }
}
