import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerHarness
import HyzerKit
import HyzerSyncProtocol
import HyzerTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import HyzerServer

/// The live board (issue 11): standings computed on the server by the devices' rules,
/// read with a view token that reads nothing else, and followed over an event stream.
/// The page itself is tested in a real Chromium (Tests/Browser/live_board.py).
@Suite struct LiveBoardTests {
    /// (position, name, progress, to-par, guest) of a board round's rows.
    static func rows(_ round: LiveBoard.Round) -> [String] {
        round.rows.map { "\($0.position) \($0.name) \($0.progress) \($0.toPar)\($0.guest ? " (guest)" : "")" }
    }

    static func board(_ h: Harness, _ groupID: String) async throws -> LiveBoard {
        LiveBoard(try #require(await h.storage.liveBoardSource(groupID: groupID)))
    }

    @Test(arguments: Backend.allCases) func theBoardRanksARoundInPlayAsTheDevicesDo(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        // Pine Hollow is par 3 a hole: Nate 2 (−1 thru 1); Mike, a guest, 4 and 3 (+1 thru 2).
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: f.setupRecords + [
                .scoreEvent(f.event(0, hole: 1, strokes: 2)), .scoreEvent(f.event(1, hole: 1, strokes: 4)),
                .scoreEvent(f.event(1, hole: 2, strokes: 3)),
            ])
        let board = try await Self.board(h, g.groupID)
        let round = try #require(board.rounds.first)
        #expect(board.rounds.count == 1 && round.id == f.round.id && round.course == "Pine Hollow")
        #expect(round.holes == 9 && round.par == 27 && round.status == "active" && round.discrepancies == 0)
        #expect(Self.rows(round) == ["1 Nate thru 1 -1", "2 Mike thru 2 +1 (guest)"])
        #expect(board.head == 5 && board.group.name == "League")
    }

    @Test(arguments: Backend.allCases) func tiesDisagreementsAndDNFReadAsOnTheKiosk(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        // Two devices disagree on Nate's hole 1 (neither supersedes the other): one open
        // discrepancy, whichever value counts meanwhile.
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device,
            records: f.setupRecords + [
                .scoreEvent(f.event(0, hole: 1, strokes: 3, device: "a")),
                .scoreEvent(f.event(0, hole: 1, strokes: 4, device: "b")),
            ])
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: [.scoreEvent(f.event(1, hole: 1, strokes: 3))])
        let source = try #require(await h.storage.liveBoardSource(groupID: g.groupID))
        let round = try #require(LiveBoard(source).rounds.first)
        #expect(round.discrepancies == 1)
        // The same rows as HyzerKit's own ranking of the same events.
        let expected = StandingsEngine.standings(
            scorecard: Scorecard(course: try f.course.course(), round: f.round.round, events: source.events[f.round.id] ?? []),
            participants: f.round.participants, finished: false)
        #expect(round.rows.map(\.position) == expected.rows.map(\.positionLabel))
        #expect(round.rows.map(\.toPar) == expected.rows.map { ScoreFormat.toPar($0.toPar) })

        // Finished with holes missing: everyone is DNF, positions "–", and the round is
        // still on the board (the last one finished) once nothing is in play.
        var done = f.round
        done.status = .completed
        done.version = UUID()
        done.updatedAt = 300
        done.completedAt = 300
        _ = try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: [.round(done)])
        let final = try #require(try await Self.board(h, g.groupID).rounds.first)
        #expect(final.status == "completed" && final.rows.allSatisfy { $0.position == "–" && $0.progress == "DNF" })
    }

    @Test(arguments: Backend.allCases) func withNothingInPlayTheLastRoundWithScoresIsShownNotADiscardedOne(
        _ backend: Backend
    ) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let played = try Fixture(status: .active)
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: played.setupRecords + [.scoreEvent(played.event(0))])
        var finished = played.round
        (finished.status, finished.version, finished.updatedAt) = (.completed, UUID(), 400)
        // A round started by mistake and discarded later: completed, no scores, newer.
        let mistake = try Fixture(status: .active)
        var discarded = mistake.round
        (discarded.status, discarded.version, discarded.updatedAt) = (.completed, UUID(), 500)
        _ = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: [.round(finished)] + mistake.setupRecords + [.round(discarded)])
        let board = try await Self.board(h, g.groupID)
        #expect(board.rounds.map(\.id) == [played.round.id])
        #expect(board.rounds.first?.status == "completed")
        // A group with nothing at all: an empty board, not an error.
        let empty = try await h.group("Empty")
        #expect(try await Self.board(h, empty.groupID).rounds.isEmpty)
        #expect(try await h.storage.liveBoardSource(groupID: "no-such-group") == nil)
    }

    /// A view token reads its group's board and nothing else. Negative control (by hand):
    /// with `SQLiteStorage.principal` also resolving view tokens (as a device's, without a
    /// device id), the sync routes took it for a known token (403, not 401) and this failed.
    @Test(arguments: Backend.allCases) func aViewTokenReadsTheBoardAndNothingElse(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let other = try await h.group("Other league")
        let view = try await h.storage.createViewToken(groupID: g.groupID)
        let otherView = try await h.storage.createViewToken(groupID: other.groupID)
        #expect(view.hasPrefix("hzv_") && view != otherView)
        try await h.test { client in
            let path = "/v1/groups/\(g.groupID)/board"
            let ok = try await client.execute(uri: path, method: .get, headers: headers(token: view))
            #expect(ok.status == .ok)
            #expect(try decode(LiveBoard.self, ok).group.id == g.groupID)
            #expect(ok.headers[.cacheControl] == "no-store")
            // No token, a device's token, the admin's token: 401. Another group's link: 403.
            for token in [nil, g.token, g.admin] {
                let refused = try await client.execute(uri: path, method: .get, headers: headers(token: token))
                #expect(refused.status == .unauthorized, "token \(token?.prefix(4) ?? "none")")
            }
            let elsewhere = try await client.execute(uri: path, method: .get, headers: headers(token: otherView))
            #expect(elsewhere.status == .forbidden)
            #expect(errorMessage(elsewhere).contains("another group"))
            // The sync and admin routes never accept a view token.
            let pull = try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: view, device: g.device))
            let push = try await client.execute(
                uri: "/v1/push", method: .post, headers: headers(token: view, device: g.device),
                body: try body(PushRequest(deviceID: g.device, records: [])))
            let devices = try await client.execute(uri: "/v1/devices", method: .get, headers: headers(token: view))
            #expect([pull.status, push.status, devices.status] == [.unauthorized, .unauthorized, .unauthorized])
        }
        // Revoked (`hyzer-server group board-unlink`): refused from then on, the other
        // group's link untouched.
        #expect(try await h.storage.revokeViewTokens(groupID: g.groupID) == 1)
        #expect(try await h.storage.viewGroup(token: view) == nil)
        #expect(try await h.storage.viewGroup(token: otherView) == other.groupID)
    }

    @Test func thePageAndItsScriptsGoOutWithProtectiveHeaders() async throws {
        let pages = WebPages(directory: repositoryRoot.appendingPathComponent("assets/web"))
        for name in ["board.html", "board.js", "board.css", "fonts/Quicksand-Bold.ttf"] {
            let response = try pages.response(name)
            let csp = response.headers[.contentSecurityPolicy] ?? ""
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "\(name): \(csp)")
            #expect(csp.contains("frame-ancestors 'none'") && response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
        }
        #expect(pages.files["board.js"]?.type == "text/javascript; charset=utf-8")
        // Only the loaded names are served: a path never reaches the file system.
        #expect(throws: HTTPError.self) { try pages.response("../courses.json") }
        // The page has no inline script for the CSP to refuse.
        let html = String(buffer: try #require(pages.files["board.html"]).body)
        #expect(html.contains("<script type=\"module\" src=\"/web/board.js\"></script>"))
        #expect(!html.contains("<script>") && !html.contains("onload="))
    }

    /// The event stream: the board at once, then a new one after a push, over a real socket.
    @Test func theEventStreamCarriesANewBoardAfterEachPush() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-board-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try await RunningServer.start(ServerConfiguration(dataDirectory: dir, host: "127.0.0.1", port: 0))
        let (group, _) = try await server.storage.createGroup(name: "Live")
        let device = "phone-1"
        let deviceToken = try await server.storage.enroll(groupID: group.id, deviceID: device, name: "Phone")
        let f = try Fixture()
        _ = try await server.storage.push(groupID: group.id, deviceID: device, records: f.setupRecords)
        let view = try await server.storage.createViewToken(groupID: group.id)

        var request = HTTPClientRequest(url: "\(server.baseURL)/v1/groups/\(group.id)/board/events")
        request.headers.add(name: "Authorization", value: "Bearer \(view)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "content-type")?.hasPrefix("text/event-stream") == true)
        var events = SSEReader(response.body.makeAsyncIterator())
        let first = try #require(try await events.nextBoard())
        #expect(first.rounds.first?.rows.allSatisfy { $0.progress == "thru 0" } == true)

        // A device pushes a score, as a phone would: the next event is the new board.
        var push = HTTPClientRequest(url: "\(server.baseURL)/v1/push")
        push.method = .POST
        push.headers.add(name: "Authorization", value: "Bearer \(deviceToken)")
        push.headers.add(name: SyncProtocol.deviceHeader, value: device)
        push.headers.add(name: "Content-Type", value: "application/json")
        push.body = .bytes(try body(PushRequest(deviceID: device, records: [.scoreEvent(f.event(0, strokes: 2))])))
        let pushed = try await HTTPClient.shared.execute(push, timeout: .seconds(10))
        #expect(pushed.status == .ok)
        let next = try #require(try await events.nextBoard())
        #expect(next.head > first.head)
        #expect(next.rounds.first?.rows.first.map { "\($0.name) \($0.toPar)" } == "Nate -1")
        await server.stop()
    }
}

/// Reads `event: board` blocks from a text/event-stream body.
struct SSEReader {
    var body: HTTPClientResponse.Body.AsyncIterator
    var buffer = ""

    init(_ body: HTTPClientResponse.Body.AsyncIterator) { self.body = body }

    mutating func nextBoard() async throws -> LiveBoard? {
        while true {
            while let end = buffer.range(of: "\n\n") {
                let block = String(buffer[..<end.lowerBound])
                buffer = String(buffer[end.upperBound...])
                let lines = block.split(separator: "\n")
                guard lines.contains("event: board"),
                    let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst("data: ".count)
                else { continue }
                return try SyncCoding.decoder().decode(LiveBoard.self, from: Data(data.utf8))
            }
            guard let chunk = try await body.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }
}
