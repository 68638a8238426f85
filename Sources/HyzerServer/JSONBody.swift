import Foundation
import Hummingbird
import HyzerSyncProtocol

/// JSON answers and bodies, with the protocol's coder and explicit size limits.
enum JSONBody {
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try SyncCoding.encoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `response`, never kept by a browser or a proxy: for answers that are a grant (a code,
    /// a token) or change with the next request (who plays as whom, the board).
    static func uncached<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try response(value, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Collects at most `limit` bytes (413 beyond) and decodes, answering 400 with the
    /// decoder's reason for anything malformed.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw HTTPError(.contentTooLarge, message: "request body of \(length) bytes is over the \(limit)-byte limit")
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: "request body is over the \(limit)-byte limit")
        }
        guard buffer.readableBytes > 0 else { throw HTTPError(.badRequest, message: "empty request body; JSON expected") }
        let data = Data(buffer.readableBytesView)
        do {
            return try SyncCoding.decoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            // Foundation's decoder reports an integer too large for its field as data that
            // is not JSON at all, with no path: said as what it is when the body parses.
            if case .dataCorrupted(let c) = error, c.codingPath.isEmpty,
                (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            {
                throw HTTPError(
                    .badRequest, message: "malformed JSON body: a number is too large for its field (integers fit in 64 bits)")
            }
            throw HTTPError(.badRequest, message: "malformed JSON body: \(describe(error))")
        } catch {
            throw HTTPError(.badRequest, message: "malformed JSON body")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let c):
            return "missing field \"\(key.stringValue)\" at \(path(c.codingPath).isEmpty ? "top level" : path(c.codingPath))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "wrong type at \(path(c.codingPath)): \(c.debugDescription)"
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty ? "not valid JSON" : "invalid value at \(path(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

extension StorageError {
    var http: HTTPError {
        switch self {
        case .notFound(let m): HTTPError(.notFound, message: m)
        case .conflict(let m): HTTPError(.conflict, message: m)
        case .invalid(let m): HTTPError(.badRequest, message: m)
        }
    }
}
