public struct KioskSettings: Sendable, Equatable {
    /// NFR15: replace motion with instant changes.
    public var reduceMotion: Bool
    /// How long each page of a board that does not fit stays (issue 15).
    public var boardPageInterval: Millis
    /// Rotating rows on a board page; nil: as many as fit at the minimum sizes (never more).
    public var boardRowsPerPage: Int?
    /// Idle dimming (kiosk.conf's display.dim_after_minutes and dim_level): after this long
    /// with nobody at the knob and no new score, the screen dims; nil never dims.
    public var dimAfter: Millis?
    /// The screen's brightness while dimmed, 0.05 to 1.
    public var dimLevel: Double
    /// kiosk.conf's default display.dim_level (30 %).
    public static let defaultDimLevel = 0.3
    /// The organizer code's lock (kiosk.conf's [lock]; the kiosk's own default is on, with
    /// the code chosen at the first locked action). Off here: the machine alone guards nothing.
    public var organizerLock: OrganizerLock.Setting
    public init(
        reduceMotion: Bool = false, boardPageInterval: Millis = MotionTokens.boardPageInterval,
        boardRowsPerPage: Int? = nil, dimAfter: Millis? = nil, dimLevel: Double = KioskSettings.defaultDimLevel,
        organizerLock: OrganizerLock.Setting = .off
    ) {
        self.organizerLock = organizerLock
        self.reduceMotion = reduceMotion
        self.boardPageInterval = max(1_000, boardPageInterval)
        self.boardRowsPerPage = boardRowsPerPage
        self.dimAfter = dimAfter.map { max(1_000, $0) }
        self.dimLevel = min(1, max(0.05, dimLevel))
    }
}
