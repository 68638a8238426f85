import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// The device-authorization flow (RFC 8628) on the storage and the routes, with the time
/// on a `ManualClock`: expiry, polling too fast, single use. The real-process journey is
/// `DeviceJoinProcessTests` (HyzerSyncTests).
@Suite struct DeviceAuthorizationTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = DeviceCodePolicy()

    func refusal(_ outcome: DeviceTokenOutcome) -> DeviceTokenRefusal? {
        if case .refused(let refusal, _) = outcome { return refusal }
        return nil
    }

    func token(_ outcome: DeviceTokenOutcome) -> EnrollResponse? {
        if case .enrolled(let answer) = outcome { return answer }
        return nil
    }

    @Test func codesHaveTheReadableFormAndAreStoredHashed() async throws {
        let h = try Harness(clock: ManualClock(date: Self.start))
        let codes = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "Clubhouse", policy: policy)
        #expect(codes.expiresIn == 600)
        #expect(codes.interval == 5)
        #expect(codes.userCode.count == 9 && Array(codes.userCode)[4] == "-")
        #expect(DeviceUserCode.normalize(codes.userCode) != nil)
        #expect(codes.deviceCode.hasPrefix("hzc_") && codes.deviceCode.count > 40)
        // Neither code is in the database, only their hashes.
        let file = try Data(contentsOf: h.dir.appendingPathComponent(SQLiteStorage.fileName))
        let wal = (try? Data(contentsOf: h.dir.appendingPathComponent(SQLiteStorage.fileName + "-wal"))) ?? Data()
        for secret in [codes.deviceCode, DeviceUserCode.normalize(codes.userCode)!] {
            #expect(file.range(of: Data(secret.utf8)) == nil && wal.range(of: Data(secret.utf8)) == nil)
        }
        let row = try await h.sqlite.pool.read { db in try DeviceAuthorizationRow.fetchOne(db) }
        #expect(row?.deviceCodeHash == Tokens.hash(codes.deviceCode))
        #expect(row?.expiresAt == Self.start.timeIntervalSince1970 + 600)
    }

    @Test(arguments: Backend.allCases) func pendingThenSlowDownThenApprovedThenSpent(_ backend: Backend) async throws {
        let clock = ManualClock(date: Self.start)
        let h = try await Harness.make(backend, clock: clock)
        let (group, _) = try await h.storage.createGroup(name: "League")
        let codes = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "Clubhouse", policy: policy)

        #expect(refusal(try await h.storage.exchangeDeviceCode(codes.deviceCode)) == .authorizationPending)
        clock.advance(by: .seconds(2))
        #expect(refusal(try await h.storage.exchangeDeviceCode(codes.deviceCode)) == .slowDown)
        clock.advance(by: .seconds(5))
        #expect(refusal(try await h.storage.exchangeDeviceCode(codes.deviceCode)) == .authorizationPending)

        // The admin types it in lower case without the dash.
        let typed = codes.userCode.lowercased().replacingOccurrences(of: "-", with: "")
        let approved = try await h.storage.approveDevice(userCode: typed, groupID: group.id)
        #expect(approved == DeviceApprovalResponse(groupID: group.id, deviceID: "kiosk-1", name: "Clubhouse"))
        await #expect(throws: DeviceApprovalError.alreadyApproved) {
            try await h.storage.approveDevice(userCode: codes.userCode, groupID: group.id)
        }

        clock.advance(by: .seconds(5))
        let answer = try #require(token(try await h.storage.exchangeDeviceCode(codes.deviceCode)))
        #expect(answer.groupID == group.id && answer.groupName == "League" && answer.deviceID == "kiosk-1")
        let principal = try await h.storage.authenticate(token: answer.deviceToken)
        #expect(principal == Principal(groupID: group.id, role: .device, deviceID: "kiosk-1"))
        #expect(try await h.storage.devices(groupID: group.id).map(\.name) == ["Clubhouse"])

        // Spent: a second exchange gets no second token.
        clock.advance(by: .seconds(5))
        #expect(refusal(try await h.storage.exchangeDeviceCode(codes.deviceCode)) == .invalidGrant)
    }

    /// A copy of a spent device code must never enroll the device again, not even after
    /// its token was revoked (when the device id is free to enroll once more).
    /// Negative control: without the `redeemedAt` check in `exchangeDeviceCode` this test
    /// failed (the replay got a fresh token for the revoked device); checked once, by hand.
    @Test(arguments: Backend.allCases) func aSpentCodeCannotReEnrollARevokedDevice(_ backend: Backend) async throws {
        let clock = ManualClock(date: Self.start)
        let h = try await Harness.make(backend, clock: clock)
        let (group, _) = try await h.storage.createGroup(name: "League")
        let codes = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "Clubhouse", policy: policy)
        _ = try await h.storage.approveDevice(userCode: codes.userCode, groupID: group.id)
        let first = try #require(token(try await h.storage.exchangeDeviceCode(codes.deviceCode)))
        try await h.storage.revoke(groupID: group.id, deviceID: "kiosk-1")
        #expect(try await h.storage.authenticate(token: first.deviceToken) == nil)

        clock.advance(by: .seconds(10))
        let replay = try await h.storage.exchangeDeviceCode(codes.deviceCode)
        #expect(refusal(replay) == .invalidGrant)
        if case .refused(_, let message) = replay { #expect(message.contains("already exchanged")) }
        #expect(try await h.storage.devices(groupID: group.id).allSatisfy { $0.revokedAt != nil })
    }

    @Test(arguments: Backend.allCases) func codesExpireAfterTenMinutes(_ backend: Backend) async throws {
        let clock = ManualClock(date: Self.start)
        let h = try await Harness.make(backend, clock: clock)
        let (group, _) = try await h.storage.createGroup(name: "League")
        let late = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "A", policy: policy)
        let approvedInTime = try await h.storage.authorizeDevice(deviceID: "kiosk-2", name: "B", policy: policy)
        clock.advance(by: .seconds(599))
        _ = try await h.storage.approveDevice(userCode: approvedInTime.userCode, groupID: group.id)
        clock.advance(by: .seconds(1))
        // Ten minutes on: the admin is too late, and an approved code not collected in
        // time is dead too.
        await #expect(throws: DeviceApprovalError.expired) {
            try await h.storage.approveDevice(userCode: late.userCode, groupID: group.id)
        }
        #expect(refusal(try await h.storage.exchangeDeviceCode(late.deviceCode)) == .expiredToken)
        #expect(refusal(try await h.storage.exchangeDeviceCode(approvedInTime.deviceCode)) == .expiredToken)
        #expect(try await h.storage.devices(groupID: group.id).isEmpty)
    }

    @Test(arguments: Backend.allCases) func wrongCodesAreRefusedWithWhatToDo(_ backend: Backend) async throws {
        let h = try await Harness.make(backend, clock: ManualClock(date: Self.start))
        let (group, _) = try await h.storage.createGroup(name: "League")
        let codes = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "A", policy: policy)
        await #expect(throws: DeviceApprovalError.malformed) {
            try await h.storage.approveDevice(userCode: "AEIO-U123", groupID: group.id)
        }
        // A well-formed code nobody asked for (flip one letter of the real one).
        var letters = Array(DeviceUserCode.normalize(codes.userCode)!)
        letters[0] = letters[0] == "B" ? "C" : "B"
        await #expect(throws: DeviceApprovalError.unknown) {
            try await h.storage.approveDevice(userCode: String(letters), groupID: group.id)
        }
        await #expect(throws: DeviceApprovalError.unknownGroup("nope")) {
            try await h.storage.approveDevice(userCode: codes.userCode, groupID: "nope")
        }
        #expect(refusal(try await h.storage.exchangeDeviceCode("hzc_made-up")) == .invalidGrant)
        try await h.storage.denyDevice(userCode: codes.userCode)
        #expect(refusal(try await h.storage.exchangeDeviceCode(codes.deviceCode)) == .accessDenied)
        await #expect(throws: DeviceApprovalError.alreadyDenied) {
            try await h.storage.approveDevice(userCode: codes.userCode, groupID: group.id)
        }
    }

    @Test(arguments: Backend.allCases) func aDeviceIDInUseCannotBeApproved(_ backend: Backend) async throws {
        let h = try await Harness.make(backend, clock: ManualClock(date: Self.start))
        let g = try await h.group(device: "kiosk-1")
        let codes = try await h.storage.authorizeDevice(deviceID: "kiosk-1", name: "Impostor", policy: policy)
        await #expect(throws: DeviceApprovalError.deviceTaken("kiosk-1")) {
            try await h.storage.approveDevice(userCode: codes.userCode, groupID: g.groupID)
        }
    }

    @Test(arguments: Backend.allCases) func pendingCodesAreBounded(_ backend: Backend) async throws {
        let h = try await Harness.make(backend, clock: ManualClock(date: Self.start))
        let small = DeviceCodePolicy(maxPending: 3)
        for i in 0..<3 { _ = try await h.storage.authorizeDevice(deviceID: "k\(i)", name: "K", policy: small) }
        await #expect(throws: DeviceApprovalError.tooManyPending) {
            try await h.storage.authorizeDevice(deviceID: "k3", name: "K", policy: small)
        }
    }

    /// The routes: RFC 8628's error codes in the 400 body, the admin's API approval, and an
    /// admin of one group refused when it names another.
    @Test(arguments: Backend.allCases) func routesAnswerWithCodesAndCheckTheGroup(_ backend: Backend) async throws {
        let h = try await Harness.make(backend, clock: ManualClock(date: Self.start))
        let (g, adminG) = try await h.storage.createGroup(name: "G")
        let (_, adminH) = try await h.storage.createGroup(name: "H")
        try await h.test { client in
            let asked = try await client.execute(
                uri: "/v1/device/authorize", method: .post, headers: headers(token: nil),
                body: try body(DeviceAuthorizationRequest(deviceID: "kiosk-1", name: "Clubhouse")))
            #expect(asked.status == .ok)
            let codes = try decode(DeviceAuthorizationResponse.self, asked)

            let poll = try await client.execute(
                uri: "/v1/device/token", method: .post, headers: headers(token: nil),
                body: try body(DeviceTokenRequest(deviceCode: codes.deviceCode)))
            #expect(poll.status == .badRequest)
            #expect(poll.headers[.cacheControl] == "no-store")
            #expect(try decode(ErrorResponse.self, poll).error.code == "authorization_pending")

            let approve = { (token: String?, group: String?) in
                try await client.execute(
                    uri: "/v1/device/approve", method: .post, headers: headers(token: token),
                    body: try body(DeviceApprovalRequest(userCode: codes.userCode, groupID: group)))
            }
            #expect(try await approve(nil, g.id).status == .unauthorized)
            let wrongGroup = try await approve(adminH, g.id)
            #expect(wrongGroup.status == .forbidden)
            #expect(errorMessage(wrongGroup).contains("another group"))
            let approved = try await approve(adminG, g.id)
            #expect(approved.status == .ok)
            #expect(try decode(DeviceApprovalResponse.self, approved).groupID == g.id)
            let twice = try await approve(adminG, g.id)
            #expect(twice.status == .conflict)
            #expect(errorMessage(twice).contains("already approved"))
        }
    }
}
