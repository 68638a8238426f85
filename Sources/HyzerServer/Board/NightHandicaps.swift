import Foundation
import HyzerKit
import HyzerSyncProtocol

/// The handicaps of each league night ranked by net (issue 37), worked out once a night
/// from the group's whole history (`SeasonBoardSource.handicaps`) and kept: only rounds of
/// earlier days make them, so the scores of the night itself (every board it pushes out)
/// never need them read again. The kiosk reads them once a night too.
actor NightHandicapCache {
    private var entries: [String: [UUID: [UUID: Double]]] = [:]

    /// `source` with the handicaps of each of its nights ranked by net.
    func filling<Storage: LiveBoardStorage>(
        _ source: LiveBoardSource, groupID: String, storage: Storage
    ) async throws -> LiveBoardSource {
        var source = source
        for record in source.nights where record.net == true {
            if let known = entries[groupID]?[record.id] {
                source.handicaps[record.id] = known
                continue
            }
            guard let event = try? record.event() else { continue }
            let cards = event.rounds.compactMap { id in
                source.rounds.first { $0.id == id }.flatMap { card in
                    card.playedCourse(source.courses[card.courseID]).map {
                        RoundSnapshot(round: card.round, course: $0, events: [])
                    }
                }
            }
            let night = LeagueNightSnapshot(event: event, cards: cards)
            let history = try await storage.seasonSource(groupID: groupID, day: nil)
            let handicaps = history?.handicaps(for: night, timeZone: .current) ?? [:]
            entries[groupID, default: [:]][record.id] = handicaps
            source.handicaps[record.id] = handicaps
        }
        return source
    }
}
