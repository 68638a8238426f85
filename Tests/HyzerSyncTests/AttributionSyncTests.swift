import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Issue 14 item 4 through a real server: where a score came from travels with it, so the
/// device that pulls it credits it as the device that made it did.
@Suite(.serialized) struct AttributionSyncTests {
    @Test func aScoresDeviceNameAndPersonReachTheOtherDevice() async throws {
        try await withGroup { group in
            let kiosk = try await group.device("Kiosk")
            let phone = try await group.device("Phone")
            let round = try kiosk.startRound(["Nate", "Mike"])
            try await kiosk.db.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: round.participants[0].id, hole: 1, strokes: 3,
                        reportedBy: ScoreEvent.nobody, deviceName: "Clubhouse kiosk")))
            #expect(try await kiosk.db.read(.events(round: round.id)).first?.deviceName == "Clubhouse kiosk", "stored here")
            try await kiosk.sync()
            try await phone.sync()
            let pulled = try #require(try await phone.db.read(.events(round: round.id)).first)
            #expect(pulled.deviceName == "Clubhouse kiosk")
            #expect(pulled.reportedBy == ScoreEvent.nobody)
            #expect(pulled.deviceID == kiosk.db.deviceID)

            // And back: the phone's owner scores a friend; the kiosk learns both.
            try await phone.db.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: round.participants[1].id, hole: 1, strokes: 4,
                        reportedBy: round.participants[0].id, deviceName: "Nate's phone")))
            try await phone.sync()
            try await kiosk.sync()
            let back = try #require(try await kiosk.db.read(.events(round: round.id)).first { $0.deviceID == phone.db.deviceID })
            #expect(back.deviceName == "Nate's phone" && back.reportedBy == round.participants[0].id)
            // What the server holds is what both have.
            let stored = try #require(try await group.serverEvents()[back.id])
            #expect(stored.event == back)
        }
    }

    /// A name that cannot be a caption is refused before anything is stored.
    @Test func aBadDeviceNameIsRefused() throws {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try store.write(.savePlayer(player))
        let created = try store.write(
            .createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        let round = try store.write(.startRound(created.id))
        for name in ["", "  ", String(repeating: "x", count: ScoreEvent.maxDeviceNameLength + 1)] {
            #expect(throws: StoreError.self) {
                try store.write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: player.id, hole: 1, strokes: 3, reportedBy: player.id,
                            deviceName: name)))
            }
        }
        #expect(try store.read(.events(round: round.id)).isEmpty)
    }
}
