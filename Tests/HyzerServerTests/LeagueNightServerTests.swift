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

    func night(_ f: Fixture, at seconds: Double = 300, ctp: [LeagueEvent.ClosestToPin] = [], pot: [UUID]? = nil)
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
        let damaged = json.replacingOccurrences(of: "\"tournament\", \"data\": {\"x\": 1}", with: "\"round\", \"data\": {\"x\": 1}")
        #expect(throws: DecodingError.self) { try SyncCoding.decoder().decode(PullResponse.self, from: Data(damaged.utf8)) }
    }
}
