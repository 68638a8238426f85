import Foundation
import Testing

@testable import HyzerKit

/// Times as real producers write them: whole seconds, JavaScript's milliseconds, Python's
/// microseconds, offsets; and clear refusals for what is not a time.
@Suite struct ISO8601TimeTests {
    /// 2026-11-21T14:45:06Z, worked out independently of the parser.
    static let reference = Date(timeIntervalSince1970: 1_795_272_306)

    @Test func wholeSecondsInUTC() throws {
        #expect(try ISO8601Time.date(from: "2026-11-21T14:45:06Z") == Self.reference)
        #expect(try ISO8601Time.date(from: "1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
    }

    @Test func javaScriptToISOStringRoundTrips() throws {
        // `new Date(1795272306464).toISOString()` in any browser or Node.
        let date = try ISO8601Time.date(from: "2026-11-21T14:45:06.464Z")
        #expect(abs(date.timeIntervalSince1970 - 1_795_272_306.464) < 1e-6)
    }

    @Test(arguments: [
        ("2026-11-21T14:45:06.464437Z", 0.464437),  // Python's isoformat(), the issue's example
        ("2026-11-21T14:45:06.4Z", 0.4),
        ("2026-11-21T14:45:06.123456789Z", 0.123456789),  // Go's RFC3339Nano
        ("2026-11-21T14:45:06,5Z", 0.5),  // ISO 8601's decimal comma
    ])
    func fractionalSecondsOfAnyLength(text: String, fraction: Double) throws {
        let date = try ISO8601Time.date(from: text)
        #expect(abs(date.timeIntervalSince(Self.reference) - fraction) < 1e-6)
    }

    @Test(arguments: [
        "2026-11-21T16:45:06+02:00",
        "2026-11-21T16:45:06+0200",
        "2026-11-21T09:15:06-05:30",
        "2026-11-21T14:45:06+00:00",
        "2026-11-21t14:45:06z",
        "2026-11-21 14:45:06Z",
    ])
    func offsetsAndRFC3339Spellings(text: String) throws {
        #expect(try ISO8601Time.date(from: text) == Self.reference)
    }

    @Test func offsetAcrossMidnightAndLeapDay() throws {
        #expect(try ISO8601Time.date(from: "2024-03-01T01:00:00+02:00") == ISO8601Time.date(from: "2024-02-29T23:00:00Z"))
        #expect(try ISO8601Time.date(from: "2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
    }

    @Test(arguments: [
        ("", "4-digit year"),
        ("yesterday", "4-digit year"),
        ("2026-11-21", "time of day"),
        ("2026-11-21T14:45:06", "no time zone"),
        ("2026-13-01T00:00:00Z", "month 13"),
        ("2026-02-29T00:00:00Z", "day 29"),
        ("2026-11-21T24:00:00Z", "out of range"),
        ("2026-11-21T14:45:06.Z", "digits after the decimal point"),
        ("2026-11-21T14:45:06Z trailing", "after the time zone"),
        ("2026-11-21T14:45:06+2", "offset"),
        ("1795272306", "-MM"),
    ])
    func garbageIsRefusedWithAReason(text: String, reason: String) {
        #expect {
            try ISO8601Time.date(from: text)
        } throws: { error in
            guard let error = error as? ISO8601Time.ParseError else { return false }
            return error.text == text && error.description.contains("is not an ISO 8601 time")
                && error.reason.contains(reason)
        }
    }

    @Test func writtenTimesReadBack() throws {
        let date = Date(timeIntervalSince1970: 1_795_272_306.25)
        #expect(ISO8601Time.string(from: date) == "2026-11-21T14:45:06Z")
        #expect(ISO8601Time.string(from: date, fractionalSeconds: true) == "2026-11-21T14:45:06.250Z")
        #expect(try ISO8601Time.date(from: ISO8601Time.string(from: date, fractionalSeconds: true)) == date)
    }

    /// Files we write (sync-server.json) spell times as `ISO8601Time.string(from:)` does, the
    /// same text Foundation's `.iso8601` strategy wrote before, and read back through ours.
    @Test func jsonEncodingStrategyWritesOurForm() throws {
        struct Stamped: Codable, Equatable { var at: Date }
        let value = Stamped(at: Date(timeIntervalSince1970: 1_795_272_306))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .hyzerISO8601
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(json == #"{"at":"2026-11-21T14:45:06Z"}"#)
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        #expect(try foundation.encode(value) == encoder.encode(value))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .hyzerISO8601
        #expect(try decoder.decode(Stamped.self, from: Data(json.utf8)) == value)
    }

    @Test func jsonDecodingStrategyAcceptsFractionsAndNamesBadTimes() throws {
        struct Stamped: Decodable { var at: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .hyzerISO8601
        let stamped = try decoder.decode(Stamped.self, from: Data(#"{"at": "2026-11-21T14:45:06.464437Z"}"#.utf8))
        #expect(abs(stamped.at.timeIntervalSince(Self.reference) - 0.464437) < 1e-6)
        #expect {
            try decoder.decode(Stamped.self, from: Data(#"{"at": "soon"}"#.utf8))
        } throws: { error in
            "\(error)".contains("\"soon\" is not an ISO 8601 time")
        }
    }

    @Test func scenarioAcceptsProducerTimesAndRefusesGarbage() throws {
        func scenario(createdAt: String) throws -> Scenario {
            try Scenario.decode(
                Data(
                    """
                    {"course": {"name": "c", "pars": [3]}, "participants": [{"id": "p", "name": "P"}],
                     "events": [{"id": "e", "participant": "p", "hole": 1, "strokes": 3, "device": "d",
                                 "createdAt": "\(createdAt)"}]}
                    """.utf8))
        }
        for text in ["2026-11-21T14:45:06.464437Z", "2026-11-21T14:45:06.464Z", "2026-11-21T16:45:06+02:00"] {
            #expect(try scenario(createdAt: text).evaluate().standings.first?.standing.strokes == 3, "\(text)")
        }
        #expect {
            try scenario(createdAt: "21/11/2026 14:45").evaluate()
        } throws: { error in
            "\(error)".contains("createdAt \"21/11/2026 14:45\" is not an ISO 8601 time")
        }
    }
}
