import Foundation
import HyzerKit

/// What the kiosk knows of the world, read from the store by the shell.
public struct KioskData: Sendable, Equatable {
    /// The round the screens act on, if any: the newest active one, or the one picked at the
    /// round chooser (`KioskState.focus(on:now:)`), which stays in front while it is played.
    public var round: RoundSnapshot?
    /// The other rounds being played, newest first (issue 9: two cards on the course). Empty
    /// in the common one-round case, so a reload compares and copies nothing more than before.
    public var otherRounds: [RoundSnapshot]
    /// The most recently completed round, for the summary card.
    public var lastCompleted: RoundSnapshot?
    public var courses: [Course]
    public var players: [Player]
    /// This kiosk's device id, so the resolve screen can say "this kiosk" for its own scores.
    public var deviceID: String?
    /// Deleted courses, most recent first: the Courses list's "Deleted" section (issue 35).
    public var deletedCourses: [DeletedCourse]
    /// The league night a round in play is a card of (issue 36): the board ranks its cards
    /// together. nil on an ordinary day.
    public var leagueNight: LeagueNightSnapshot?
    /// The latest night's registered players: check-in's "Same as last week".
    public var lastNightPlayers: [UUID]
    /// What the ace pot held before `leagueNight` (the nights before it); tonight's buy-ins
    /// and aces come on top (`KioskData.acePot`).
    public var acePotCarriedIn: Int
    /// The group's ace pot as it stands, when no league night is on the board (nil then,
    /// and for a group that has never had one): the idle board's foot says it, so the pot
    /// is in view between nights too (issue 36). Nil for an empty pot.
    public var idleAcePot: Int?
    /// The table of the season today falls in (issue 37), when the group has set one up: the
    /// idle board shows it between rounds. Read again only while no round is in play.
    public var season: SeasonTable?
    /// What `lastCompleted` set (issue 37): its players' new personal bests on the course, and
    /// whether it broke the course record. Its summary and the idle board's last round say
    /// "PB!" (for that round only: the next round's summary is the next one's moment).
    public var newBests: NewBests?

    public init(
        round: RoundSnapshot? = nil, lastCompleted: RoundSnapshot? = nil, courses: [Course] = [], players: [Player] = [],
        deviceID: String? = nil, otherRounds: [RoundSnapshot] = [], deletedCourses: [DeletedCourse] = [],
        leagueNight: LeagueNightSnapshot? = nil, lastNightPlayers: [UUID] = [], acePotCarriedIn: Int = 0,
        idleAcePot: Int? = nil, season: SeasonTable? = nil, newBests: NewBests? = nil
    ) {
        self.idleAcePot = idleAcePot
        self.season = season
        self.newBests = newBests
        self.acePotCarriedIn = acePotCarriedIn
        self.leagueNight = leagueNight
        self.lastNightPlayers = lastNightPlayers
        self.round = round
        self.otherRounds = otherRounds
        self.lastCompleted = lastCompleted
        self.courses = courses
        self.players = players
        self.deviceID = deviceID
        self.deletedCourses = deletedCourses
    }

    /// A display name for whoever reported a score.
    public func name(of id: UUID) -> String? {
        round?.round.participant(id)?.name ?? players.first { $0.id == id }?.displayName
            ?? otherRounds.lazy.compactMap { $0.round.participant(id)?.name }.first
    }

    /// The ace pot with tonight's buy-ins and aces in it, when tonight has one.
    public var acePot: AcePot? {
        guard let night = leagueNight, let entry = night.event.acePot else { return nil }
        return AcePot(
            carriedIn: acePotCarriedIn,
            nights: [
                AcePot.Night(
                    optedIn: Set(entry.players), aces: night.results.aces.map(\.participantID), buyIn: entry.buyIn)
            ])
    }

    /// Every round being played, newest first: the chooser's rows, the board's course panel.
    /// A league night's cards come first, card A first (issue 36): they were all made at
    /// once, and "Which card?" is asked by letter.
    public var rounds: [RoundSnapshot] {
        guard let round else { return otherRounds }
        guard !otherRounds.isEmpty else { return [round] }
        let all = ([round] + otherRounds).sorted(by: Self.newestFirst)
        guard let cards = leagueNight?.event.rounds else { return all }
        let place = Dictionary(cards.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return all.enumerated().sorted { a, b in
            (place[a.element.round.id] ?? cards.count, a.offset) < (place[b.element.round.id] ?? cards.count, b.offset)
        }.map(\.element)
    }

    /// The same rounds with round `id` as the one acted on; nil when none has that id.
    public func focused(on id: UUID) -> KioskData? {
        if round?.round.id == id { return self }
        guard let index = otherRounds.firstIndex(where: { $0.round.id == id }) else { return nil }
        var copy = self
        let chosen = copy.otherRounds.remove(at: index)
        if let round { copy.otherRounds = (copy.otherRounds + [round]).sorted(by: Self.newestFirst) }
        copy.round = chosen
        return copy
    }

    /// Fresh data from the store (newest round in front) with the round `old` had in front
    /// kept there, so a round another device starts never takes the board or the card from
    /// the group using this kiosk. A round this kiosk just started (its own write,
    /// `.localScore`, a round `old` did not have) comes to the front. With one round: `self`.
    public func keepingInFront(of old: KioskData, trigger: StandingsTrigger) -> KioskData {
        guard !otherRounds.isEmpty, let front = old.round?.round.id, round?.round.id != front else { return self }
        if trigger == .localScore, let newest = round, !old.rounds.contains(where: { $0.round.id == newest.round.id }) {
            return self
        }
        return focused(on: front) ?? self
    }

    /// The store's order (`activeRounds`), with the id to settle a tie the same way everywhere.
    static func newestFirst(_ a: RoundSnapshot, _ b: RoundSnapshot) -> Bool {
        (a.round.createdAt, a.round.id.uuidString) > (b.round.createdAt, b.round.id.uuidString)
    }
}
