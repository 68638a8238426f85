import Foundation
import HyzerKit

/// What a store call refused, with a sentence a person can act on.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case scoring(ScoringError)
    case round(RoundError)
    case course(CourseError)
    case player(PlayerError)
    case leagueNight(LeagueEventError)
    /// The course was deleted (perhaps on another device) since it was shown.
    case courseDeleted(String)
    case corruptRecord(String)
    case seeds(String)
    case noDiscrepancy(participant: UUID, hole: Int)
    /// Only a round without scores can be discarded.
    case roundHasScores(UUID)
    /// SQLite refused a record (a constraint or trigger), with its message.
    case refused(String)

    public var description: String {
        switch self {
        case .notFound(let what): "\(what) was not found"
        case .scoring(let e): e.description
        case .round(let e): e.description
        case .course(let e): e.description
        case .player(let e): e.description
        case .leagueNight(let e): e.description
        case .courseDeleted(let name): "\(name) was deleted, perhaps on another device: pick another course"
        case .corruptRecord(let what): "stored record is damaged: \(what)"
        case .seeds(let what): "cannot load seeded courses: \(what)"
        case .noDiscrepancy(let p, let h): "participant \(p) has no open discrepancy on hole \(h)"
        case .roundHasScores: "the round has scores, so it cannot be discarded: finish it instead"
        case .refused(let message): message
        }
    }
}
