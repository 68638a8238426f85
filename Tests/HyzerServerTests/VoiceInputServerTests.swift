import Foundation
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Issue 38 on the server, on both backends: a score marked as spoken (`input: "voice"`) is
/// kept with its mark and reaches every device so; a mark that is not a short word is refused
/// with the reason, and nothing of it is stored.
@Suite struct VoiceInputServerTests {
    /// Negative control (by hand): with the input check out of `ScoreEvent.validate`, the
    /// bad mark was stored and this failed.
    @Test(arguments: Backend.allCases) func aSpokenScoreKeepsItsMarkAndABadMarkIsRefused(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        var spoken = f.event(1, hole: 2, strokes: 4, device: "phone-1")
        spoken.event.input = .voice
        spoken.event.deviceName = "Nate's phone"
        var bad = f.event(0, hole: 3, strokes: 5, device: "phone-1")
        bad.event.input = ScoreEvent.Input(rawValue: "voice; DROP TABLE")
        let results = try await h.storage.push(
            groupID: g.groupID, deviceID: g.device, records: f.setupRecords + [.scoreEvent(spoken), .scoreEvent(bad)]
        ).results
        #expect(results.map(\.status) == [.created, .created, .created, .rejected], "\(results)")
        #expect(results.last?.reason?.contains("input is a word") == true, "\(results.last?.reason ?? "")")
        let feed = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)
        let events = feed.records.compactMap { if case .scoreEvent(let e) = $0.record { e.event } else { nil } }
        #expect(events.map(\.id) == [spoken.event.id])
        #expect(events.first?.input == .voice)
    }
}
