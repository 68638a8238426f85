import Foundation
import HTTPTypes
import Hummingbird

/// The plain HTML, CSS and JavaScript modules the server hands to browsers (assets/web,
/// installed beside the server as share/hyzer/assets/web). No build step and no framework:
/// the files are served as they are in the repository.
///
/// Read once when the server starts, so a request never waits on the disk and an
/// installed page cannot change under a running server.
public struct WebPages: Sendable {
    /// File name → (content type, bytes). Only these names are ever served: a path from a
    /// request never reaches the file system.
    let files: [String: (type: String, body: ByteBuffer)]

    static let types = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "ttf": "font/ttf", "png": "image/png", "webmanifest": "application/manifest+json",
    ]

    /// Every .html, .css, .js, .png and .webmanifest file directly in `directory`, and the kiosk's fonts from
    /// the `fonts` folder beside it (as `fonts/NAME.ttf`, so the pages read in the board's
    /// typefaces); none when `directory` is nil or missing (the pages then answer 404
    /// saying so, and the API still works).
    public init(directory: URL?) {
        var files: [String: (type: String, body: ByteBuffer)] = [:]
        func load(_ folder: URL, prefix: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                guard let type = Self.types[(name as NSString).pathExtension], (prefix.isEmpty) != (type == "font/ttf"),
                    let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
                else { continue }
                files[prefix + name] = (type, ByteBuffer(bytes: data))
            }
        }
        if let directory {
            load(directory, prefix: "")
            load(directory.deletingLastPathComponent().appendingPathComponent("fonts", isDirectory: true), prefix: "fonts/")
        }
        self.files = files
    }

    /// The headers every page and script goes out with: scripts only from this server
    /// (no inline script, so an injected name can never run), no framing (clickjacking), no
    /// content-type guessing, and no referrer (the board link's token lives in the
    /// fragment, which browsers never send; this keeps the path out of other sites' logs).
    static let protective: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; "
            + "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        // A new server version's page is fetched again, never a stale one from the cache.
        .cacheControl: "no-cache",
    ]

    /// The pages' routes. Each page is the same for every group and every phone: it reads
    /// what it needs from its path, and tokens from the fragment or the browser's storage,
    /// which never reach a server log.
    func addRoutes(to router: Router<ServerRequestContext>) {
        let pages = self
        router.get("g/:group/board") { _, _ in try pages.response("board.html") }
        router.get("join/:code") { _, _ in try pages.response("join.html") }
        // A name typed on a phone for the kiosk (the QR code on its name screens).
        router.get("n/:code") { _, _ in try pages.response("name.html") }
        // A round's summary (the QR code on the kiosk's summary card); the page reads the
        // token from its own path.
        router.get("s/:token") { _, _ in try pages.response("summary.html") }
        // `/phone/` (Hummingbird also routes `/phone` here; links use the slash, which the
        // service worker's scope needs).
        router.get("phone/") { _, _ in try pages.response("phone.html") }
        // A service worker's own path decides what it may control: /phone/ and below for
        // the scorecard, /s/ and below for the summaries (one script; it reads its scope).
        router.get("phone/sw.js") { _, _ in try pages.response("sw.js") }
        router.get("s/sw.js") { _, _ in try pages.response("sw.js") }
        // The scorecard as an installable app ("Add to Home Screen"); its scope is /phone/.
        router.get("phone/manifest.webmanifest") { _, _ in try pages.response("manifest.webmanifest") }
        router.get("web/:file") { _, context in try pages.response(try context.parameters.require("file")) }
        router.get("web/fonts/:file") { _, context in try pages.response("fonts/" + (try context.parameters.require("file"))) }
    }

    func response(_ name: String) throws -> Response {
        guard let file = files[name] else {
            throw HTTPError(.notFound, message: "\(name) is not installed with this server (assets/web)")
        }
        var headers = Self.protective
        headers[.contentType] = file.type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }
}
