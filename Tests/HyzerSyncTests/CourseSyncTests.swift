import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Issue 14: course edits and deletions reach every device through a real server (on
/// loopback, real SQLite files), and a played round's results never move with them.
@Suite(.serialized) struct CourseSyncTests {
    /// `course` saved on `device`, and a round of one new player started on it there.
    static func startRound(on course: Course, at device: TestDevice) throws -> (Player, Round) {
        try device.db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try device.db.write(.savePlayer(player))
        let created = try device.db.write(
            .createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        let round = try device.db.write(.startRound(created.id))
        return (player, round)
    }

    @Test func editsAndDeletionsReachTheOtherDeviceAndPlayedRoundsKeepTheirPars() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let course = try Course(name: "Three Nines", holeCount: 27, exceptions: [27: 7])
            let (player, round) = try Self.startRound(on: course, at: a)
            for hole in 1...27 { try a.score(round, 0, hole: hole, 3) }
            try await a.sync()
            try await b.sync()
            #expect(try await b.db.read(.course(id: course.id)) == course)
            let standings = try a.snapshot(round).standings
            #expect(standings.rows.first?.toPar == 81 - course.totalPar)
            #expect(try b.snapshot(round).standings == standings)

            // B changes the pars; A sees the new course, and the round is as it was on both.
            let edited = try Course(id: course.id, name: "Three Nines", holeCount: 27, defaultPar: 4)
            try await b.db.write(.saveCourse(edited))
            try await b.sync()
            try await a.sync()
            #expect(try await a.db.read(.course(id: course.id)) == edited)
            for device in [a, b] {
                #expect(try device.snapshot(round).course.pars == course.pars, "\(device.name)")
                #expect(try device.snapshot(round).standings == standings, "\(device.name)")
            }

            // B deletes it; meanwhile A, not yet told, renames it. The deletion wins on
            // both, whatever the clocks say, and the round stays with its name and pars.
            try await b.db.write(.deleteCourse(id: course.id))
            try await b.sync()
            try await a.db.write(.saveCourse(try Course(id: course.id, name: "Renamed Offline", pars: edited.pars)))
            try await a.sync()
            try await b.sync()
            for device in [a, b] {
                #expect(try await device.db.read(.courses).contains { $0.id == course.id } == false, "\(device.name)")
                #expect(try await device.db.read(.course(id: course.id)) == nil, "\(device.name)")
                let snapshot = try device.snapshot(round)
                #expect(snapshot.course.pars == course.pars, "\(device.name)")
                #expect(snapshot.standings == standings, "\(device.name)")
                #expect(try await device.db.read(.pendingSyncCount) == 0, "\(device.name)")
            }
            // Picking it on a device that has heard is a clear refusal.
            #expect(throws: StoreError.courseDeleted("Three Nines")) {
                try a.db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
            }
            // The phones' board still shows the round, on its own pars.
            let source = try #require(try await group.server.storage.liveBoardSource(groupID: group.groupID))
            let shown = try #require(LiveBoard(source).rounds.first { $0.id == round.id })
            #expect(shown.course == "Three Nines")
            #expect(shown.par == course.totalPar)
        }
    }

    /// A device that joins after the deletion gets the tombstone and the round: it has no
    /// holes for the course, only the round's own pars, and shows the round all the same.
    @Test func aNewDeviceLearnsADeletedCourseFromItsTombstone() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            // A course of A's own: the late device's seeded courses do not include it.
            let course = try Course(name: "Pitch and Putt", holeCount: 6, exceptions: [6: 4])
            let (_, round) = try Self.startRound(on: course, at: a)
            try a.score(round, 0, hole: 1, 2)
            try await a.db.write(.deleteCourse(id: course.id))
            try await a.sync()

            let late = try await group.device("Late")
            let report = try await late.sync()
            #expect(report.pullRejected.isEmpty, "\(report.pullRejected)")
            #expect(try await late.db.read(.courses).contains { $0.id == course.id } == false)
            let snapshot = try late.snapshot(round)
            #expect(snapshot.course.name == course.name)
            #expect(snapshot.course.pars == course.pars)
            #expect(snapshot.standings == (try a.snapshot(round)).standings)
        }
    }
}
