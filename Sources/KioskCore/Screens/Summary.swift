import Foundation
import HyzerKit

extension Screen {
    /// The summary card of a finished round (FR58).
    public struct Summary: Sendable, Equatable {
        public var roundID: UUID
        public init(roundID: UUID) { self.roundID = roundID }
    }

    public static func summary(roundID: UUID) -> Screen { .summary(Summary(roundID: roundID)) }
}

extension KioskState {
    /// The snapshot a summary screen shows.
    public func summarySnapshot(_ id: UUID) -> RoundSnapshot? {
        [data.round, data.lastCompleted].compactMap { $0 }.first { $0.round.id == id }
    }
}

extension Screen.Summary: ScreenBehavior {
    var name: String { "summary" }
    /// Built to be read (and photographed): it stays until someone presses.
    var isTransient: Bool { false }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.screen = .board
        return []
    }
}
