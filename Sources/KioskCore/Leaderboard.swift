import Foundation
import HyzerKit

/// The live leaderboard as the screen shows it: rows in display order plus the motion
/// that carries them there (reshuffle), the ▲/▼ arrows and the change pulses.
public struct Leaderboard: Sendable, Equatable {
    public struct Arrow: Sendable, Equatable {
        /// Positions gained (▲, positive) or lost (▼, negative).
        public var delta: Int
        public var shownAt: Millis
    }

    public private(set) var roundID: UUID?
    public private(set) var rows: [Standing] = []
    /// Vertical position of each row in row slots (0 = top), animated.
    public private(set) var slots: [UUID: Tween] = [:]
    public private(set) var arrows: [UUID: Arrow] = [:]
    public private(set) var pulses: [UUID: Millis] = [:]
    public private(set) var lastTrigger: StandingsTrigger?
    /// On a league night's board (issue 36): each player's card letter. Empty otherwise.
    public private(set) var cards: [UUID: String] = [:]
    private var engine = StandingsEngine()
    /// The night's standings last shown, for its arrows and pulses.
    private var lastNight: Standings?

    public init() {}

    public static func == (a: Leaderboard, b: Leaderboard) -> Bool {
        a.roundID == b.roundID && a.rows == b.rows && a.slots == b.slots && a.arrows == b.arrows
            && a.pulses == b.pulses && a.lastTrigger == b.lastTrigger && a.cards == b.cards
    }

    /// A league night's board (issue 36): every card's players ranked together, moving as
    /// one round's board does. `roundID` is then the night's id.
    public mutating func update(night: LeagueNightSnapshot, trigger: StandingsTrigger, now: Millis, reduceMotion: Bool) {
        if roundID != night.event.id {
            self = Leaderboard()
            roundID = night.event.id
        }
        let new = night.results.standings.standings
        let change = StandingsChange(previous: lastNight, new: new, trigger: trigger)
        lastNight = new
        cards = night.results.standings.card.mapValues(CardDraw.letter)
        apply(change, trigger: trigger, now: now, reduceMotion: reduceMotion)
    }

    /// Takes a new snapshot of the round. Rows that moved slide from where they are drawn
    /// now to their new slot (so a change mid-animation continues smoothly); with reduce
    /// motion they jump, but arrows and pulses still tell what changed (NFR15: feedback
    /// is never removed, only the motion).
    public mutating func update(with snapshot: RoundSnapshot?, trigger: StandingsTrigger, now: Millis, reduceMotion: Bool) {
        guard let snapshot else {
            self = Leaderboard()
            return
        }
        if roundID != snapshot.round.id {
            // A different round: show it as it is, no animation from the old one.
            self = Leaderboard()
            roundID = snapshot.round.id
        }
        let change = engine.recompute(
            round: snapshot.round, course: snapshot.course, events: snapshot.events,
            trigger: trigger)
        apply(change, trigger: trigger, now: now, reduceMotion: reduceMotion)
    }

    /// The rows of `change.new`, sliding from where they are drawn now.
    private mutating func apply(_ change: StandingsChange, trigger: StandingsTrigger, now: Millis, reduceMotion: Bool) {
        lastTrigger = trigger
        let newRows = change.new.rows
        let oldIndex = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.participantID, $0) })
        var moving: [(UUID, from: Double, to: Int)] = []
        var newSlots: [UUID: Tween] = [:]
        for (index, row) in newRows.enumerated() {
            let id = row.participantID
            if change.previous != nil, !reduceMotion, var sliding = slots[id], sliding.isRunning(at: now) {
                // Already sliding: the slide bends to the new slot (or carries on, when the
                // slot is the same) and keeps its start, so changes arriving faster than a
                // reshuffle lasts never restart it and the board comes to rest.
                sliding.retarget(
                    to: Double(index), at: now, duration: MotionTokens.reshuffleDuration,
                    minimumRemaining: MotionTokens.retargetMinimum)
                newSlots[id] = sliding
                continue
            }
            let drawnAt = slots[id]?.value(at: now) ?? oldIndex[id].map(Double.init) ?? Double(index)
            if change.previous != nil, abs(drawnAt - Double(index)) > 0.001, !reduceMotion {
                moving.append((id, drawnAt, index))
            } else {
                newSlots[id] = Tween(from: Double(index), to: Double(index), start: now, duration: 1)
            }
        }
        // Stagger in display order, squeezed so the last row still lands within budget.
        let stagger =
            moving.count > 1
            ? min(
                MotionTokens.staggerPerRow,
                (MotionTokens.reshuffleBudget - MotionTokens.reshuffleDuration) / Millis(moving.count - 1))
            : 0
        for (order, move) in moving.enumerated() {
            newSlots[move.0] = Tween(
                from: move.from, to: Double(move.to), start: now + stagger * Millis(order),
                duration: MotionTokens.reshuffleDuration)
        }
        slots = newSlots
        rows = newRows
        for (id, delta) in change.positionDeltas {
            arrows[id] = Arrow(delta: delta, shownAt: now)
        }
        if change.previous != nil {
            let previous = change.previous.map { Dictionary(uniqueKeysWithValues: $0.rows.map { ($0.participantID, $0) }) } ?? [:]
            for row in newRows where previous[row.participantID] != row {
                pulses[row.participantID] = now
            }
        }
        prune(now: now)
    }

    /// Drops arrows and pulses that have run their course.
    public mutating func prune(now: Millis) {
        arrows = arrows.filter { now - $0.value.shownAt < MotionTokens.arrowLifetime }
        pulses = pulses.filter { now - $0.value < MotionTokens.pulseDuration }
    }

    /// Where a row is drawn, in slots.
    public func slot(of id: UUID, at now: Millis) -> Double {
        slots[id]?.value(at: now) ?? Double(rows.firstIndex { $0.participantID == id } ?? 0)
    }

    /// Arrow opacity 0…1: full, then fading out over the last part of its lifetime.
    public func arrowOpacity(of id: UUID, at now: Millis, reduceMotion: Bool) -> Double {
        guard let arrow = arrows[id] else { return 0 }
        let age = now - arrow.shownAt
        guard age < MotionTokens.arrowLifetime else { return 0 }
        if reduceMotion { return 1 }
        let fadeStart = MotionTokens.arrowLifetime - MotionTokens.arrowFade
        return age < fadeStart ? 1 : 1 - Double(age - fadeStart) / Double(MotionTokens.arrowFade)
    }

    /// Pulse scale 1.0 → 1.03 → 1.0 (a highlight strength for reduce motion).
    public func pulse(of id: UUID, at now: Millis) -> Double {
        guard let start = pulses[id] else { return 0 }
        let t = Double(now - start) / Double(MotionTokens.pulseDuration)
        guard t >= 0, t < 1 else { return 0 }
        return t < 0.5 ? t * 2 : (1 - t) * 2
    }

    /// True while something on the board moves or fades: the loop must keep drawing. An
    /// arrow at full opacity is still: it needs frames only while it fades (`nextChange`
    /// wakes the loop when the fade begins).
    public func isAnimating(at now: Millis, reduceMotion: Bool) -> Bool {
        if slots.values.contains(where: { $0.isRunning(at: now) }) { return true }
        let fadeStart = MotionTokens.arrowLifetime - MotionTokens.arrowFade
        if !reduceMotion, arrows.values.contains(where: { (fadeStart..<MotionTokens.arrowLifetime).contains(now - $0.shownAt) }) {
            return true
        }
        return pulses.values.contains { now - $0 < MotionTokens.pulseDuration }
    }

    /// How often to draw while something moves (nil: nothing does): every 60 Hz frame
    /// while a row slides fast enough for it to show, every other one while only arrows
    /// fade, rows pulse and slides creep into place. `slotHeight` is a row's height in
    /// pixels (nil: unknown, every slide at 60 Hz); a slide not yet started (the stagger)
    /// counts as fast, so no row sets off late.
    public func frameInterval(at now: Millis, reduceMotion: Bool, slotHeight: Double? = nil) -> Millis? {
        let fast = slots.values.contains { slide in
            guard slide.isRunning(at: now) else { return false }
            guard let slotHeight, now >= slide.start else { return true }
            return slide.travel(over: MotionTokens.frameInterval, at: now) * slotHeight
                >= MotionTokens.fullRatePixelsPerFrame
        }
        if fast { return MotionTokens.frameInterval }
        return isAnimating(at: now, reduceMotion: reduceMotion) ? MotionTokens.softFrameInterval : nil
    }

    /// The next instant something changes without input (an arrow starts to fade, or
    /// expires), if any.
    public func nextChange(after now: Millis) -> Millis? {
        let fadeStart = MotionTokens.arrowLifetime - MotionTokens.arrowFade
        return arrows.values.flatMap { [$0.shownAt + fadeStart, $0.shownAt + MotionTokens.arrowLifetime] }
            .filter { $0 > now }.min()
    }
}
