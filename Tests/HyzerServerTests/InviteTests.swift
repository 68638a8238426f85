import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Phones joining with the kiosk's QR code (issue 11): an invite works once, for ten
/// minutes, and gives the phone a device token of its own. The phone's page is tested in a
/// real Chromium (Tests/Browser/phone.py).
@Suite struct InviteTests {
    @Test(arguments: Backend.allCases) func anInviteEnrollsOnePhoneOnce(_ backend: Backend) async throws {
        let clock = ManualClock()
        let h = try await Harness.make(backend, clock: clock)
        let g = try await h.group()
        let invite = try await h.storage.createInvite(groupID: g.groupID, createdBy: g.device, lifetime: 600)
        #expect(invite.path == "/join/\(invite.code)" && DeviceUserCode.normalize(invite.code) == invite.code)
        let phone = try await h.storage.redeemInvite(code: invite.code, deviceID: "phone-1", name: "Nate's phone")
        #expect(phone.groupID == g.groupID && phone.deviceToken.hasPrefix("hzd_") && phone.deviceID == "phone-1")
        #expect(try await h.storage.authenticate(token: phone.deviceToken)?.deviceID == "phone-1")
        #expect(try await h.storage.devices(groupID: g.groupID).contains { $0.name == "Nate's phone" })
        // Used once: a second phone is refused, and nothing is enrolled for it.
        await #expect(throws: InviteError.used) {
            try await h.storage.redeemInvite(code: invite.code, deviceID: "phone-2", name: "Eve's phone")
        }
        #expect(try await h.storage.devices(groupID: g.groupID).contains { $0.deviceID == "phone-2" } == false)
    }

    /// Negative control (by hand): with the expiry check removed from `redeemInvite`, the
    /// late redemption below enrolled the phone and this test failed.
    @Test(arguments: Backend.allCases) func anInviteExpiresAfterItsLifetime(_ backend: Backend) async throws {
        let clock = ManualClock()
        let h = try await Harness.make(backend, clock: clock)
        let g = try await h.group()
        let invite = try await h.storage.createInvite(groupID: g.groupID, createdBy: "admin", lifetime: 600)
        clock.advance(by: .seconds(601))
        await #expect(throws: InviteError.expired) {
            try await h.storage.redeemInvite(code: invite.code, deviceID: "phone-1", name: "Late phone")
        }
        #expect(try await h.storage.devices(groupID: g.groupID).contains { $0.deviceID == "phone-1" } == false)
        // Typed with dashes and in lower case it is the same code; a made-up one is unknown.
        let fresh = try await h.storage.createInvite(groupID: g.groupID, createdBy: "admin", lifetime: 600)
        let typed = "\(fresh.code.prefix(4))-\(fresh.code.suffix(4))".lowercased()
        #expect(try await h.storage.redeemInvite(code: typed, deviceID: "phone-1", name: "Phone").groupID == g.groupID)
        await #expect(throws: InviteError.unknown) {
            try await h.storage.redeemInvite(code: "BCDFGHJK", deviceID: "phone-9", name: "Phone")
        }
        await #expect(throws: InviteError.malformed) {
            try await h.storage.redeemInvite(code: "hello", deviceID: "phone-9", name: "Phone")
        }
    }

    @Test(arguments: Backend.allCases) func theRoutesAskForATokenToInviteAndNoneToRedeem(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let view = try await h.storage.createViewToken(groupID: g.groupID)
        try await h.test { client in
            // The kiosk (a device) and the admin may invite; nobody else.
            for token in [g.token, g.admin] {
                let made = try await client.execute(uri: "/v1/invites", method: .post, headers: headers(token: token))
                #expect(made.status == .created)
                #expect(try decode(Invite.self, made).expiresIn == 600)
            }
            for token in [nil, view] {
                let refused = try await client.execute(uri: "/v1/invites", method: .post, headers: headers(token: token))
                #expect(refused.status == .unauthorized)
            }
            let made = try await client.execute(uri: "/v1/invites", method: .post, headers: headers(token: g.token))
            let invite = try decode(Invite.self, made)
            let redemption = InviteRedemption(code: invite.code, deviceID: "phone-7", name: "Priya's phone")
            let joined = try await client.execute(
                uri: "/v1/invites/redeem", method: .post, headers: headers(token: nil), body: try body(redemption))
            #expect(joined.status == .created)
            let phone = try decode(EnrollResponse.self, joined)
            // The phone's token is a device's like any other: it pulls.
            let pull = try await client.execute(
                uri: "/v1/pull", method: .get, headers: headers(token: phone.deviceToken, device: "phone-7"))
            #expect(pull.status == .ok)
            // And it may name the group's devices (attribution), as every device may.
            let devices = try await client.execute(
                uri: "/v1/devices", method: .get, headers: headers(token: phone.deviceToken, device: "phone-7"))
            #expect(devices.status == .ok)
            #expect(try decode(DeviceList.self, devices).devices.contains { $0.name == "Priya's phone" })
            // Spent: 409 with the reason; a bad device id: 400, and the invite is not spent.
            let again = try await client.execute(
                uri: "/v1/invites/redeem", method: .post, headers: headers(token: nil),
                body: try body(InviteRedemption(code: invite.code, deviceID: "phone-8", name: "Eve's phone")))
            #expect(again.status == .conflict && errorMessage(again).contains("already used"))
            let second = try decode(
                Invite.self, try await client.execute(uri: "/v1/invites", method: .post, headers: headers(token: g.admin)))
            let badID = try await client.execute(
                uri: "/v1/invites/redeem", method: .post, headers: headers(token: nil),
                body: try body(InviteRedemption(code: second.code, deviceID: "no spaces allowed", name: "Phone")))
            #expect(badID.status == .badRequest)
            let stillGood = try await client.execute(
                uri: "/v1/invites/redeem", method: .post, headers: headers(token: nil),
                body: try body(InviteRedemption(code: second.code, deviceID: "phone-9", name: "Sam's phone")))
            #expect(stillGood.status == .created)
        }
    }
}
