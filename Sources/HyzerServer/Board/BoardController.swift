import Foundation
import HTTPTypes
import Hummingbird
import HyzerKit
import HyzerSyncProtocol
import Logging

/// The live board: for the page (`/g/GROUP/board`, served by `WebPages`), the board as
/// JSON, and a server-sent event stream that carries a new board after every commit in the
/// group. The JSON routes take a view token (`hyzer-server group board-link`), which reads
/// this and nothing else.
struct BoardController<Storage: LiveBoardStorage> {
    let storage: Storage
    let hub: PokeHub
    let policy: LiveBoardPolicy
    /// The heartbeat's time (a `ManualClock` in tests), and the day a season is looked up by.
    let clock: any HyzerClock
    /// The season's table of each group's idle wall, kept while its feed has not moved.
    let seasons = SeasonBoardCache()
    /// Each league night ranked by net: its players' handicaps, read once a night.
    let handicaps: NightHandicapCache

    func addRoutes(to router: Router<ServerRequestContext>) {
        router.get("v1/groups/:group/board", use: board)
        router.get("v1/groups/:group/board/events", use: events)
    }

    /// The group the request's view token reads, if it is the one in the path.
    private func viewer(_ context: ServerRequestContext) async throws -> String {
        let groupID = try context.parameters.require("group")
        guard let token = context.bearerToken, let viewed = try await storage.viewGroup(token: token) else {
            throw HTTPError(.unauthorized, message: "missing, unknown or revoked view token; ask for a new board link")
        }
        guard viewed == groupID else { throw HTTPError(.forbidden, message: "this board link is for another group") }
        return groupID
    }

    private func currentBoard(_ groupID: String) async throws -> LiveBoard {
        guard let source = try await storage.liveBoardSource(groupID: groupID) else {
            throw HTTPError(.notFound, message: "no group \(groupID)")
        }
        return try await board(source, groupID: groupID)
    }

    /// The board of `source`: its nights ranked by net with their handicaps, and the
    /// season's table when nothing is being played.
    private func board(_ source: LiveBoardSource, groupID: String) async throws -> LiveBoard {
        let source = try await handicaps.filling(source, groupID: groupID, storage: storage)
        return await withSeason(LiveBoard(source), groupID: groupID)
    }

    /// The board with the season's table (issue 37) when nothing is being played: the wall
    /// shows who leads the season between rounds, as the kiosk's idle board does. Worked
    /// out again only when the group's feed has moved (or the day has turned) since.
    private func withSeason(_ board: LiveBoard, groupID: String) async -> LiveBoard {
        let playing =
            board.rounds.contains { $0.status != RoundStatus.completed.rawValue }
            || (board.nights ?? []).contains { $0.status == "live" }
        guard !playing else { return board }
        var board = board
        let day = SeasonEvent.day(of: clock.date)
        let storage = self.storage
        do {
            board.season = try await seasons.table(groupID: groupID, head: board.head, day: day) {
                try await storage.seasonSource(groupID: groupID, day: day)?.table(timeZone: .current)
            }
        } catch {
            // The season is the wall's extra: a failed read of it leaves the rounds on show.
            Self.logger.warning(
                "season table not read", metadata: ["group": "\(groupID)", "error": "\(error)"])
        }
        return board
    }

    private static var logger: Logger { Logger(label: "hyzer.server.board") }

    @Sendable func board(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let groupID = try await viewer(context)
        return try JSONBody.uncached(try await currentBoard(groupID))
    }

    /// `text/event-stream`: the board now, then a new one after each commit in the group
    /// (the same pokes the devices' live sockets get), and a comment line every heartbeat so
    /// a proxy or a phone's network keeps the connection and a dead client is noticed.
    @Sendable func events(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let groupID = try await viewer(context)
        let hub = self.hub
        let storage = self.storage
        let heartbeat = policy.heartbeat
        let clock = self.clock
        let logger = context.logger
        let body = ResponseBody { writer in
            // Subscribed before the first board is read, so no commit can fall between them.
            let (id, pokes) = await hub.subscribe(groupID: groupID)
            // One stream the writer drains: a tick per poke, one per heartbeat. It ends
            // when the pokes do (shutdown: `PokeHub.finishAll`), which ends the response.
            let (ticks, tick) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(2))
            let forward = Task {
                for await _ in pokes { tick.yield(true) }
                tick.finish()
            }
            let beat = Task {
                while !Task.isCancelled {
                    try await clock.sleep(for: heartbeat)
                    tick.yield(false)
                }
            }
            defer {
                forward.cancel()
                beat.cancel()
            }
            let encoder = SyncCoding.encoder()
            func send(_ board: LiveBoard) -> ByteBuffer {
                let json = (try? encoder.encode(board)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                return ByteBuffer(string: "event: board\nid: \(board.head)\ndata: \(json)\n\n")
            }
            do {
                // Tells EventSource-style clients how soon to come back after a drop.
                try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
                guard let source = try await storage.liveBoardSource(groupID: groupID) else { throw CancellationError() }
                var last = try await board(source, groupID: groupID)
                try await writer.write(send(last))
                for await changed in ticks {
                    guard changed else {
                        try await writer.write(ByteBuffer(string: ": still here\n\n"))
                        continue
                    }
                    guard let source = try await storage.liveBoardSource(groupID: groupID) else { break }
                    let board = try await board(source, groupID: groupID)
                    // A commit that changes nothing on the board (a player renamed who is
                    // in no round on it) sends nothing.
                    guard
                        board.rounds != last.rounds || board.nights != last.nights || board.group != last.group
                            || board.season != last.season
                    else { continue }
                    last = board
                    try await writer.write(send(board))
                }
                try await writer.finish(nil)
            } catch {
                logger.debug("board stream ended", metadata: ["group": "\(groupID)", "reason": "\(error)"])
            }
            await hub.unsubscribe(groupID: groupID, id: id)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ],
            body: body)
    }
}

/// How the board's event stream behaves.
public struct LiveBoardPolicy: Sendable {
    /// A comment line this often keeps idle connections open through proxies and tells a
    /// vanished client from a quiet group.
    public var heartbeat: Duration

    public init(heartbeat: Duration = .seconds(15)) { self.heartbeat = heartbeat }
}

/// Each group's season table as last worked out, with the feed head and day it was worked
/// out at: a board asked for again before anything is pushed (every phone watching the
/// wall) reads nothing more.
actor SeasonBoardCache {
    private var entries: [String: (head: Int64, day: String, table: LiveBoard.SeasonTable?)] = [:]

    func table(
        groupID: String, head: Int64, day: String, compute: @Sendable () async throws -> LiveBoard.SeasonTable?
    ) async throws -> LiveBoard.SeasonTable? {
        if let known = entries[groupID], known.head == head, known.day == day { return known.table }
        let table = try await compute()
        entries[groupID] = (head, day, table)
        return table
    }
}
