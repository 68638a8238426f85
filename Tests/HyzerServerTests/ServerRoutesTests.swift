import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerTestSupport
import Testing

@testable import HyzerServer

/// docs/openapi.yaml stays exact: `ServerRoutes` (what the server routes, rate limits and
/// answers 405 on) matches its paths, methods and security, every route that can answer
/// 429 declares it with `Retry-After`, and an undeclared method on a declared path is a
/// 405 with `Allow`, never a 404.
@Suite struct ServerRoutesTests {
    struct Operation: Hashable {
        var path: String
        var method: String
        var takesToken: Bool
        var declares429WithRetryAfter: Bool
    }

    /// The document's operations, read line by line (its layout: paths at two spaces,
    /// methods at four, an operation's keys at six).
    static func documented() throws -> [Operation] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let end = lines.firstIndex(of: "components:") ?? lines.count
        var operations: [Operation] = []
        var path: String?
        var i = 0
        while i < end {
            let line = lines[i]
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = String(line.dropFirst(4).dropLast())
                var body: [String] = []
                var j = i + 1
                while j < end, lines[j].hasPrefix("      ") || lines[j].isEmpty {
                    body.append(lines[j])
                    j += 1
                }
                let open = body.contains("      security: []")
                let has429 = body.contains { $0.hasPrefix("        \"429\": {$ref: \"#/components/responses/TooManyRequests\"}") }
                operations.append(Operation(path: path, method: method, takesToken: !open, declares429WithRetryAfter: has429))
                i = j
                continue
            }
            i += 1
        }
        return operations
    }

    @Test func theRouteTableIsTheDocumentsPathsMethodsAndSecurity() throws {
        let documented = try Self.documented()
        #expect(documented.count > 20, "the reader found \(documented.count) operations")
        let table = ServerRoutes.all.flatMap { route in
            route.methods.map { (route.path, $0.rawValue.lowercased(), route.takesToken) }
        }
        #expect(
            Set(documented.map { "\($0.method) \($0.path) token=\($0.takesToken)" })
                == Set(table.map { "\($1) \($0) token=\($2)" }))
        // Every operation that takes a token can be rate limited, and says so; no other does.
        for op in documented {
            #expect(op.declares429WithRetryAfter == op.takesToken, "\(op.method) \(op.path)")
        }
    }

    @Test func theTooManyRequestsResponseDeclaresRetryAfter() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        let block = try #require(text.range(of: "    TooManyRequests:\n")).upperBound
        let rest = text[block...].prefix { _ in true }.split(separator: "\n").prefix { $0.hasPrefix("      ") }
        #expect(rest.contains { $0.contains("Retry-After:") }, "\(rest)")
        #expect(rest.contains { $0.contains("#/components/schemas/Error") }, "\(rest)")
    }

    /// Every method a path does not declare is a 405 naming the ones it takes; the
    /// declared ones are not (they answer whatever their handler does). Negative control:
    /// a path that is not declared stays a 404.
    @Test func anUndeclaredMethodOnADeclaredPathIs405WithAllow() async throws {
        let h = try Harness()
        try await h.test { client in
            for route in ServerRoutes.all {
                let uri = route.path.replacingOccurrences(of: "{", with: "x").replacingOccurrences(of: "}", with: "")
                for method in ServerRoutes.methods {
                    let r = try await client.execute(uri: uri, method: method, headers: [:])
                    if route.methods.contains(method) {
                        #expect(r.status != .methodNotAllowed, "\(method) \(uri)")
                    } else {
                        #expect(r.status == .methodNotAllowed, "\(method) \(uri): \(r.status)")
                        #expect(
                            r.headers[.allow] == route.methods.map(\.rawValue).joined(separator: ", "), "\(method) \(uri)")
                    }
                }
            }
            // A method no route is registered for (QUERY, a made-up one) is a 405 too.
            for method in [HTTPRequest.Method("QUERY")!, HTTPRequest.Method("BREW")!] {
                let r = try await client.execute(uri: "/v1/push", method: method, headers: [:])
                #expect(r.status == .methodNotAllowed && r.headers[.allow] == "POST", "\(method): \(r.status)")
                #expect(try await client.execute(uri: "/v1/nothing", method: method).status == .notFound)
            }
            #expect(try await client.execute(uri: "/v1/nothing", method: .put).status == .notFound)
            #expect(try await client.execute(uri: "/v1/nothing", method: .get).status == .notFound)
        }
    }
}
