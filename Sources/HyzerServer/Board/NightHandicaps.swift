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
            // Who plays tonight: the cards' participants (the source has every card's round).
            let cards = Set(event.rounds)
            let players = source.rounds.filter { cards.contains($0.id) }.flatMap(\.participants)
            let history = try await storage.seasonSource(groupID: groupID, day: nil)
            let handicaps = history?.handicaps(for: event, players: players, timeZone: .current) ?? [:]
            entries[groupID, default: [:]][record.id] = handicaps
            source.handicaps[record.id] = handicaps
        }
        return source
    }
}
