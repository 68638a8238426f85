import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Issue 36 on the server, on both backends: a league night (`event`, protocol 3) is
/// accepted only as a night of the group's rounds, and a device that did not say it
/// speaks protocol 3 never gets one in a pull page.
@Suite struct LeagueNightServerTests {
    typealias Group = (admin: String, device: String, token: String, groupID: String)

    func night(
        _ f: Fixture, at seconds: Double = 300, ctp: [LeagueEvent.ClosestToPin] = [], pot: [UUID]? = nil
    )
        throws -> EventRecord
    {
        let event = try LeagueEvent(
            name: "Thursday league", courseID: f.course.id, day: "2026-11-26", rounds: [f.round.id], skins: .field,
            closestToPin: ctp, acePot: pot.map { .init(buyIn: 2, players: $0) },
            createdAt: Date(timeIntervalSince1970: 300))
        return EventRecord(event, version: UUID(), updatedAt: seconds)
    }

    @Test(arguments: Backend.allCases) func aNightOfTheGroupsRoundsIsAcceptedAndABadOneSaysWhy(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        // Its round in the same push, before it (dependency order): accepted.
        let good = try night(f, ctp: [.init(hole: 3, winner: f.participants[1])], pot: f.participants)
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.event(good)]
        ).results
        #expect(results.map(\.status) == [.created, .created, .created], "\(results)")

        var unknownRound = try night(f)
        unknownRound.rounds = [UUID()]
        var wrongCourse = try night(f)
        wrongCourse.courseID = UUID()
        var farHole = try night(f)
        farHole.closestToPin = [.init(hole: 10)]
        var stranger = try night(f)
        stranger.closestToPin = [.init(hole: 3, winner: UUID())]
        var outsider = try night(f)
        outsider.acePot = .init(buyIn: 2, players: [UUID()])
        var badDay = try night(f)
        badDay.day = "Thursday"
        let refused = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: [unknownRound, wrongCourse, farHole, stranger, outsider, badDay].map { .event($0) }
        ).results
        #expect(refused.allSatisfy { $0.status == .rejected }, "\(refused)")
        let reasons = refused.map { $0.reason ?? "" }
        #expect(reasons[0].contains("unknown round"))
        #expect(reasons[1].contains("not on the night's course"))
        #expect(reasons[2].contains("hole 10 is not on a course of 9 holes"))
        #expect(reasons[3].contains("plays on none of the cards"))
        #expect(reasons[4].contains("ace-pot player"))
        #expect(reasons[5].contains("2026-11-29"))
    }

    /// A discard outranks every other version, whatever the clocks say.
    @Test(arguments: Backend.allCases) func aDiscardedNightStaysDiscarded(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        var discarded = try night(f, at: 400)
        discarded.discarded = true
        let later = try night(f, at: 900)
        var laterEdit = later
        laterEdit.id = discarded.id
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.event(discarded), .event(laterEdit)]
        ).results
        #expect(results.allSatisfy { $0.status == .created })
        #expect(SyncRecord.event(discarded).stamp! > SyncRecord.event(laterEdit).stamp!)
    }

    /// Negative control (by hand): without the filter in `SyncController.pull`, the page
    /// without `protocol` held the night and this test failed.
    @Test(arguments: Backend.allCases) func aDeviceOlderThanProtocol3NeverGetsANightInItsPage(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.event(try night(f))]
        ).results
        let eventSeq = try #require(results.last?.seq)
        try await h.test { client in
            let device = headers(token: g.token, device: g.device)
            let old = try await client.execute(uri: "/v1/pull?after=0", method: .get, headers: device)
            #expect(old.status == .ok)
            let oldPage = try decode(PullResponse.self, old)
            #expect(oldPage.records.map(\.record.kind) == [.course, .round])
            #expect(oldPage.next == eventSeq && !oldPage.hasMore)
            // The raw page too: an older decoder has no case for the kind.
            #expect(!String(buffer: old.body).contains("\"event\""))
            let current = try await client.execute(uri: "/v1/pull?after=0&protocol=3", method: .get, headers: device)
            let page = try decode(PullResponse.self, current)
            #expect(page.records.map(\.record.kind) == [.course, .round, .event])
            #expect(page.next == oldPage.next && page.head == oldPage.head)
            let bad = try await client.execute(uri: "/v1/pull?after=0&protocol=zero", method: .get, headers: device)
            #expect(bad.status == .badRequest && errorMessage(bad).contains("protocol"))
        }
    }

    /// A page from a server newer than this build: a record of a kind it does not know is
    /// skipped, the rest are read, and `next` still moves past it.
    @Test func aPullPageSkipsAKindThisBuildDoesNotKnow() throws {
        let f = try Fixture()
        let known = String(decoding: try SyncCoding.encoder().encode(SyncRecord.round(f.round)), as: UTF8.self)
        let json = """
            {"epoch": "e", "next": 9, "head": 9, "hasMore": false, "protocolVersion": 4,
             "records": [{"seq": 8, "record": \(known)}, {"seq": 9, "record": {"kind": "tournament", "data": {"x": 1}}}]}
            """
        let page = try SyncCoding.decoder().decode(PullResponse.self, from: Data(json.utf8))
        #expect(page.records.map(\.seq) == [8])
        #expect(page.next == 9 && page.protocolVersion == 4)
        // A known kind that is damaged is still an error, not skipped.
        let damaged = json.replacingOccurrences(
            of: "\"tournament\", \"data\": {\"x\": 1}", with: "\"round\", \"data\": {\"x\": 1}")
        #expect(throws: DecodingError.self) { try SyncCoding.decoder().decode(PullResponse.self, from: Data(damaged.utf8)) }
    }

    /// The web board (issue 36 item 4): a night whose cards are in play is one section, all
    /// its cards ranked together with their letters, even a card already finished; its
    /// rounds are not listed again on their own; the side games are worded as on the kiosk.
    /// By hand: Pine Hollow is par 3. Card A (Nate, Mike) from hole 1, finished: Nate 2 on 1
    /// (then DNF), Mike 3 (DNF). Card B (Ann, Bo) from hole 5, in play: Ann 1 on 5 (an ace),
    /// Bo 3. Board: Ann −2, Bo E, then the finished card's DNFs last, Nate (−1) then Mike
    /// (E). Card A's skins: Nate wins hole 1; nobody scored 2–9 of a finished round, so
    /// they carry to the end, 8 unclaimed.
    @Test(arguments: Backend.allCases) func theBoardShowsANightsCardsRankedTogether(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        var cardA = f.round
        (cardA.status, cardA.completedAt, cardA.version, cardA.updatedAt) = (.completed, 250, UUID(), 250)
        let (ann, bo) = (
            Participant(id: UUID(), name: "Ann", kind: .registered), Participant(id: UUID(), name: "Bo", kind: .guest)
        )
        let cardB = RoundRecord(
            id: UUID(), version: UUID(), updatedAt: 100, courseID: f.course.id, organizerID: ann.id, participants: [ann, bo],
            status: .active, createdAt: 100, startedAt: 100, pars: Array(repeating: 3, count: 9), startHole: 5)
        func score(_ round: RoundRecord, _ p: UUID, hole: Int, _ strokes: Int) -> SyncRecord {
            .scoreEvent(
                ScoreEventRecord(
                    ScoreEvent(
                        roundID: round.id, participantID: p, hole: hole, strokes: strokes, reportedBy: p, deviceID: "dev",
                        createdAt: Date(timeIntervalSince1970: 200))))
        }
        let event = try LeagueEvent(
            name: "Thursday league", courseID: f.course.id, day: "2026-11-26", rounds: [f.round.id, cardB.id], skins: .card,
            closestToPin: [.init(hole: 5, winner: ann.id)], createdAt: Date(timeIntervalSince1970: 90))
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: f.setupRecords + [
                .round(cardB), score(f.round, f.participants[0], hole: 1, 2), score(f.round, f.participants[1], hole: 1, 3),
                .round(cardA), score(cardB, ann.id, hole: 5, 1), score(cardB, bo.id, hole: 5, 3),
                .event(EventRecord(event, version: UUID(), updatedAt: 300)),
            ]
        ).results
        #expect(results.allSatisfy { $0.status == .created }, "\(results)")
        let board = LiveBoard(try #require(await h.storage.liveBoardSource(groupID: g.groupID)))
        #expect(board.rounds.isEmpty, "the cards are the night's, not rounds of their own")
        let night = try #require(board.nights?.first)
        #expect(
            night.rows.map { "\($0.position) \($0.card ?? "-") \($0.name) \($0.progress) \($0.toPar)" } == [
                "1 B Ann thru 1 -2", "2 B Bo thru 1 E", "– A Nate DNF -1", "– A Mike DNF E",
            ])
        #expect(night.rows.map(\.guest) == [false, true, false, true])
        #expect(night.cards.map { "\($0.letter) \($0.startHole) \($0.progress)" } == ["A 1 final", "B 5 thru 1"])
        #expect(night.status == "live")
        #expect(night.skins == ["Skins, card A: Nate 1 · 8 unclaimed"], "card B has nothing to say yet")
        #expect(night.closestToPin == ["Closest to the pin, hole 5: Ann"])
        #expect(night.aces == ["Ann on hole 5"])
        // Card A's summary page (its QR code on the kiosk) is the night's: the same ranking
        // and side games, with card A's own scorecard under them.
        let source = try #require(await h.storage.roundSource(groupID: g.groupID, roundID: f.round.id))
        let summary = try #require(RoundSummary(source, roundID: f.round.id))
        #expect(summary.night == night)
        #expect(summary.card == "A")
        #expect(summary.round.id == f.round.id)
        #expect(summary.cards.map(\.name) == ["Nate", "Mike"])
        let sourceB = try #require(await h.storage.roundSource(groupID: g.groupID, roundID: cardB.id))
        let summaryB = try #require(RoundSummary(sourceB, roundID: cardB.id))
        #expect(summaryB.card == "B")
        #expect(summaryB.cards.map(\.name) == ["Ann", "Bo"])
        // A board without a night is the same bytes as before league nights.
        let plain = LiveBoard(group: board.group, head: 1, rounds: [])
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("nights"))
    }
}
