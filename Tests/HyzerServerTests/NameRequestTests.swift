import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Names typed on a phone (issue 32): the kiosk asks for a code, a phone answers it once with
/// a name, the kiosk reads it back. The phone's page and the kiosk's screen are tested end to
/// end in a real Chromium against a headless kiosk (Tests/Browser/phone_name.py).
@Suite struct NameRequestTests {
    @Test(arguments: Backend.allCases) func aCodeTakesOneNameAndTheKioskReadsIt(_ backend: Backend) async throws {
        let clock = ManualClock()
        let h = try await Harness.make(backend, clock: clock)
        let g = try await h.group()
        let made = try await h.storage.createNameRequest(
            groupID: g.groupID, createdBy: g.device, label: " Guest's name ", lifetime: 300)
        #expect(made.path == "/n/\(made.code)" && DeviceUserCode.normalize(made.code) == made.code && made.expiresIn == 300)
        clock.advance(by: .seconds(100))
        #expect(
            try await h.storage.nameRequestPrompt(code: made.code) == NameRequestPrompt(label: "Guest's name", expiresIn: 200))
        // Nothing yet: the kiosk keeps asking.
        #expect(try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID) == nil)
        // Any script, trimmed by a player's rules.
        #expect(
            try await h.storage.answerNameRequest(code: made.code.lowercased(), name: "  Zoë 김 ") == NameAnswer(name: "Zoë 김"))
        #expect(try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID) == NameAnswer(name: "Zoë 김"))
        // One name per code: a second phone is refused and the first name stands.
        await #expect(throws: NameRequestError.used) { try await h.storage.answerNameRequest(code: made.code, name: "Eve") }
        await #expect(throws: NameRequestError.used) { try await h.storage.nameRequestPrompt(code: made.code) }
        #expect(try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID)?.name == "Zoë 김")
        // The name is still the kiosk's after the code's time is up (it came in time).
        clock.advance(by: .seconds(600))
        #expect(try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID)?.name == "Zoë 김")
        // Another group's device cannot read it.
        let other = try await h.group("Other league")
        await #expect(throws: NameRequestError.unknown) {
            try await h.storage.nameRequestAnswer(code: made.code, groupID: other.groupID)
        }
    }

    /// Negative control (by hand): with the expiry check taken out of `answerProblem`, the
    /// late answer below was taken and this test failed.
    @Test(arguments: Backend.allCases) func aCodeExpiresAndBadInputIsRefusedWithoutSpendingIt(_ backend: Backend) async throws {
        let clock = ManualClock()
        let h = try await Harness.make(backend, clock: clock)
        let g = try await h.group()
        let made = try await h.storage.createNameRequest(
            groupID: g.groupID, createdBy: g.device, label: "Course name", lifetime: 300)
        // A name the board could not show is refused on the phone, and the code still works.
        await #expect(throws: NameRequestError.self) { try await h.storage.answerNameRequest(code: made.code, name: "   ") }
        await #expect(throws: NameRequestError.self) {
            try await h.storage.answerNameRequest(code: made.code, name: String(repeating: "a", count: Player.maxNameLength + 1))
        }
        #expect(try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID) == nil)
        clock.advance(by: .seconds(301))
        await #expect(throws: NameRequestError.expired) { try await h.storage.answerNameRequest(code: made.code, name: "Late") }
        await #expect(throws: NameRequestError.expired) { try await h.storage.nameRequestPrompt(code: made.code) }
        await #expect(throws: NameRequestError.expired) {
            try await h.storage.nameRequestAnswer(code: made.code, groupID: g.groupID)
        }
        await #expect(throws: NameRequestError.unknown) { try await h.storage.nameRequestPrompt(code: "BCDFGHJK") }
        await #expect(throws: NameRequestError.malformed) { try await h.storage.answerNameRequest(code: "hello", name: "Sam") }
        // Labels: something to say, and no more than the schema's 60 code points.
        await #expect(throws: NameRequestError.self) {
            try await h.storage.createNameRequest(groupID: g.groupID, createdBy: g.device, label: " ", lifetime: 300)
        }
        await #expect(throws: NameRequestError.self) {
            try await h.storage.createNameRequest(
                groupID: g.groupID, createdBy: g.device, label: String(repeating: "e\u{301}", count: 31), lifetime: 300)
        }
    }

    @Test(arguments: Backend.allCases) func theKioskAsksWithItsTokenAndThePhoneWithNone(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let view = try await h.storage.createViewToken(groupID: g.groupID)
        try await h.test { client in
            let ask = try body(NameRequestCreation(label: "New player's name"))
            for token in [nil, view] {
                let refused = try await client.execute(
                    uri: "/v1/name-requests", method: .post, headers: headers(token: token), body: ask)
                #expect(refused.status == .unauthorized)
            }
            let created = try await client.execute(
                uri: "/v1/name-requests", method: .post, headers: headers(token: g.token, device: g.device), body: ask)
            #expect(created.status == .created)
            let made = try decode(NameRequest.self, created)
            let answerURI = "/v1/name-requests/\(made.code)/answer"
            // The kiosk's look needs its token; waiting is 204.
            #expect(try await client.execute(uri: answerURI, method: .get, headers: headers(token: nil)).status == .unauthorized)
            let waiting = try await client.execute(
                uri: answerURI, method: .get, headers: headers(token: g.token, device: g.device))
            #expect(waiting.status == .noContent)
            // The phone: the prompt and the name, with no token.
            let prompt = try await client.execute(
                uri: "/v1/name-requests/\(made.code)", method: .get, headers: headers(token: nil))
            #expect(prompt.status == .ok)
            #expect(try decode(NameRequestPrompt.self, prompt).label == "New player's name")
            let tooLong = try await client.execute(
                uri: "/v1/name-requests/\(made.code)", method: .post, headers: headers(token: nil),
                body: try body(NameAnswer(name: String(repeating: "x", count: 41))))
            #expect(tooLong.status == .badRequest && errorMessage(tooLong).contains("at most 40"))
            let sent = try await client.execute(
                uri: "/v1/name-requests/\(made.code)", method: .post, headers: headers(token: nil),
                body: try body(NameAnswer(name: "Ngozi")))
            #expect(sent.status == .ok)
            let again = try await client.execute(
                uri: "/v1/name-requests/\(made.code)", method: .post, headers: headers(token: nil),
                body: try body(NameAnswer(name: "Eve")))
            #expect(again.status == .conflict && errorMessage(again).contains("already used"))
            let got = try await client.execute(uri: answerURI, method: .get, headers: headers(token: g.token, device: g.device))
            #expect(got.status == .ok)
            #expect(try decode(NameAnswer.self, got).name == "Ngozi")
            let unknown = try await client.execute(
                uri: "/v1/name-requests/BCDFGHJK/answer", method: .get, headers: headers(token: g.token, device: g.device))
            #expect(unknown.status == .notFound)
        }
    }

    @Test func anExpiredCodeIsGoneForTheKiosk() async throws {
        let clock = ManualClock()
        let h = try await Harness.make(.sqlite, clock: clock)
        let g = try await h.group()
        let made = try await h.storage.createNameRequest(
            groupID: g.groupID, createdBy: g.device, label: "Guest's name", lifetime: 300)
        clock.advance(by: .seconds(300))
        try await h.test { client in
            let gone = try await client.execute(
                uri: "/v1/name-requests/\(made.code)/answer", method: .get, headers: headers(token: g.token, device: g.device))
            #expect(gone.status == .gone && errorMessage(gone).contains("expired"))
        }
    }
}
