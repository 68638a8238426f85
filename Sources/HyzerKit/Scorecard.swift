import Foundation

/// A disagreement the group should look at (FR48): one per {participant, hole} at most.
public struct Discrepancy: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Two or more current leaves hold different values (concurrent scoring).
        case disagreeingLeaves
        /// A leaf replaced another device's score with a different value: a correction
        /// of someone else's statement, which the organizer should confirm.
        case crossDeviceOverride
    }

    public var cell: ScoreCell
    /// The distinct values in dispute, ascending.
    public var values: [Int]
    /// The events that hold those values (current leaves and overridden events), by id.
    public var eventIDs: [UUID]
    public var kinds: Set<Kind>
}

/// The resolved state of one {participant, hole}.
public struct CellResolution: Sendable, Hashable {
    public var cell: ScoreCell
    /// The value that counts, or nil when nothing was recorded (or all of it was withdrawn).
    public var value: Int?
    /// Events no other event supersedes, ordered by id so every device lists them alike.
    /// Retractions are not among them: they say no value.
    public var leaves: [ScoreEvent]
    public var discrepancy: Discrepancy?
    /// Retractions no event supersedes yet (issue 35's undo).
    public var retractions: [ScoreEvent] = []
    /// A correction of the finished round counts here (issue 35): the cell is marked.
    public var isCorrected: Bool { leaves.contains(where: \.isCorrection) }

    /// What a new statement about this cell supersedes: its leaves, and any retraction
    /// still current, so that a device older than retractions, which counts one as an
    /// ordinary statement, sees the new statement replace it too.
    public var supersedable: [UUID] { leaves.map(\.id) + retractions.map(\.id) }

    /// Resolves one cell from its events, in any order (A7: never by timestamp).
    ///
    /// - A retraction withdraws the events it names: the cell resolves as if they and the
    ///   retraction had never been said. What they superseded counts again; a cell they
    ///   filled is empty again (issue 35's "Undo").
    /// - All leaves agree: that value, silently, however many devices said it (NFR20).
    /// - Leaves disagree: a discrepancy. Until someone resolves it the value that counts
    ///   is chosen the same way on every device: if any leaf is a resolution only
    ///   resolution leaves are candidates; then the value held by the most leaves wins;
    ///   a tie goes to the lower value. (Fewest strokes keeps the board stable and is
    ///   what a friendly group would concede while the organizer decides.)
    /// - A non-resolution leaf that supersedes another device's event with a different
    ///   value also raises a discrepancy; the leaf's value counts.
    /// - A resolution leaf raises no override discrepancy of its own.
    /// - A correction of a finished round (issue 35) is authoritative as a resolution is.
    public static func resolve(_ cell: ScoreCell, events: [ScoreEvent]) -> CellResolution {
        guard !events.isEmpty else { return CellResolution(cell: cell, value: nil, leaves: [], discrepancy: nil) }
        if events.count == 1 {
            // The common case by far: one statement, nothing to compare. (A retraction
            // alone: what it withdraws has not arrived yet.)
            if events[0].isRetraction {
                return CellResolution(cell: cell, value: nil, leaves: [], discrepancy: nil, retractions: events)
            }
            return CellResolution(cell: cell, value: events[0].strokes, leaves: events, discrepancy: nil)
        }
        var retractions: [ScoreEvent] = []
        var withdrawn = Set<UUID>()
        for event in events where event.isRetraction {
            retractions.append(event)
            withdrawn.formUnion(event.supersedes)
        }
        let said = retractions.isEmpty ? events : events.filter { !$0.isRetraction && !withdrawn.contains($0.id) }
        var resolved = resolveStatements(cell, events: said)
        if !retractions.isEmpty {
            let superseded = Set(events.flatMap(\.supersedes))
            resolved.retractions = retractions.filter { !superseded.contains($0.id) }.sorted { $0.id.precedes($1.id) }
        }
        return resolved
    }

    /// The cell from its statements (no retraction among them).
    private static func resolveStatements(_ cell: ScoreCell, events: [ScoreEvent]) -> CellResolution {
        guard events.count > 1 else {
            return CellResolution(cell: cell, value: events.first?.strokes, leaves: events, discrepancy: nil)
        }
        var byID: [UUID: ScoreEvent] = [:]
        byID.reserveCapacity(events.count)
        var superseded = Set<UUID>()
        for event in events {
            byID[event.id] = event
            superseded.formUnion(event.supersedes)
        }
        var leaves = byID.values.filter { !superseded.contains($0.id) }
        if leaves.isEmpty {
            // Only a supersession cycle gets here (malformed input from some device).
            // Treat every event as current so the disagreement is visible, not hidden.
            leaves = Array(byID.values)
        }
        if leaves.count > 1 { leaves.sort { $0.id.precedes($1.id) } }

        var disputed = Set<Int>()
        var disputedIDs = Set<UUID>()
        var kinds = Set<Discrepancy.Kind>()

        let leafValues = Set(leaves.map(\.strokes))
        if leafValues.count > 1 {
            disputed.formUnion(leafValues)
            disputedIDs.formUnion(leaves.map(\.id))
            kinds.insert(.disagreeingLeaves)
        }
        for leaf in leaves where !leaf.isResolution && !leaf.isCorrection {
            for targetID in leaf.supersedes {
                guard let target = byID[targetID],
                    target.deviceID != leaf.deviceID,
                    target.strokes != leaf.strokes
                else { continue }
                disputed.formUnion([target.strokes, leaf.strokes])
                disputedIDs.formUnion([target.id, leaf.id])
                kinds.insert(.crossDeviceOverride)
            }
        }

        let discrepancy =
            kinds.isEmpty
            ? nil
            : Discrepancy(
                cell: cell, values: disputed.sorted(),
                eventIDs: disputedIDs.sorted { $0.precedes($1) }, kinds: kinds)
        return CellResolution(cell: cell, value: countingValue(of: leaves), leaves: leaves, discrepancy: discrepancy)
    }

    private static func countingValue(of leaves: [ScoreEvent]) -> Int? {
        let resolutions = leaves.filter { $0.isResolution || $0.isCorrection }
        let candidates = resolutions.isEmpty ? leaves : resolutions
        var votes: [Int: Int] = [:]
        for leaf in candidates { votes[leaf.strokes, default: 0] += 1 }
        return votes.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key
    }
}

/// Every cell of a round, resolved. Built from the raw events in any arrival order.
public struct Scorecard: Sendable {
    public let pars: [Int]
    public let participantIDs: [UUID]
    private let cells: [ScoreCell: CellResolution]

    public init(pars: [Int], participantIDs: [UUID], events: [ScoreEvent]) {
        self.pars = pars
        self.participantIDs = participantIDs
        var grouped: [ScoreCell: [ScoreEvent]] = [:]
        for event in events { grouped[event.cell, default: []].append(event) }
        var cells: [ScoreCell: CellResolution] = [:]
        cells.reserveCapacity(grouped.count)
        for (cell, cellEvents) in grouped {
            cells[cell] = CellResolution.resolve(cell, events: cellEvents)
        }
        self.cells = cells
    }

    public init(course: Course, round: Round, events: [ScoreEvent]) {
        self.init(pars: round.played(on: course).pars, participantIDs: round.participants.map(\.id), events: events)
    }

    public var holeCount: Int { pars.count }

    public func resolution(participant: UUID, hole: Int) -> CellResolution {
        let cell = ScoreCell(participantID: participant, hole: hole)
        return cells[cell] ?? CellResolution(cell: cell, value: nil, leaves: [], discrepancy: nil)
    }

    public func value(participant: UUID, hole: Int) -> Int? {
        cells[ScoreCell(participantID: participant, hole: hole)]?.value
    }

    /// Open discrepancies of the round's participants, by hole, then in the round's
    /// participant order (the same on every device).
    public var discrepancies: [Discrepancy] {
        let order = Dictionary(participantIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return cells.values
            .compactMap(\.discrepancy)
            .filter { order[$0.cell.participantID] != nil }
            .sorted { a, b in
                a.cell.hole != b.cell.hole
                    ? a.cell.hole < b.cell.hole
                    : order[a.cell.participantID]! < order[b.cell.participantID]!
            }
    }

    /// Cells whose value is a correction made after the finish (issue 35).
    public var correctedCells: Int { cells.values.reduce(0) { $0 + ($1.isCorrected ? 1 : 0) } }

    /// Holes with a value for a participant.
    public func holesScored(by participant: UUID) -> Int {
        pars.indices.reduce(0) { $0 + (value(participant: participant, hole: $1 + 1) == nil ? 0 : 1) }
    }

    /// FR14: every participant has a value on every hole.
    public var isComplete: Bool {
        guard !participantIDs.isEmpty else { return false }
        return participantIDs.allSatisfy { holesScored(by: $0) == pars.count }
    }

    /// True when every participant has a value on `hole` (FR20 auto-advance).
    public func isHoleComplete(_ hole: Int) -> Bool {
        !participantIDs.isEmpty && participantIDs.allSatisfy { value(participant: $0, hole: hole) != nil }
    }
}
