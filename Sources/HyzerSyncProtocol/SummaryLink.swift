import Foundation

/// `POST /v1/rounds/ROUND/summary-link`, with a device's token: a read-only link to one
/// round's summary page, which the kiosk's summary card shows as a QR code of
/// `serverURL + path`. The path holds the link's token, so it is short enough to scan from
/// a small panel; the token reads that round's summary and nothing else.
public struct SummaryLink: Codable, Sendable, Hashable {
    /// `/s/TOKEN`.
    public var path: String

    public init(path: String) { self.path = path }
}
