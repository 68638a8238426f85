import Foundation
import HyzerKit

extension Screen {
    /// The summary card of a finished round (FR58).
    public struct Summary: Sendable, Equatable {
        public var roundID: UUID
        /// The round's summary page on the group server, drawn as a QR code beside the
        /// card (issue 11); nil until the shell has one, or for a kiosk in no group.
        public var link: String?
        public init(roundID: UUID, link: String? = nil) {
            self.roundID = roundID
            self.link = link
        }
    }

    public static func summary(roundID: UUID) -> Screen { .summary(Summary(roundID: roundID)) }
}

extension KioskState {
    /// Shows a round's summary card, asking the shell for its summary page's link when the
    /// kiosk is in a group (a phone scans it to keep the card).
    mutating func showSummary(_ roundID: UUID) -> [KioskEffect] {
        screen = .summary(roundID: roundID)
        return isInNoGroup ? [] : [.requestSummaryLink(roundID)]
    }

    /// The shell's report of a summary link: kept if that round's card is still up.
    mutating func summaryLinkChanged(roundID: UUID, url: String) {
        guard case .summary(var summary) = screen, summary.roundID == roundID else { return }
        summary.link = url
        screen = .summary(summary)
    }

    /// The summary page's link on show, if any (the summary screen only: the idle board's
    /// last round is for glancing at, not for scanning).
    public var summaryLinkOnShow: String? {
        if case .summary(let summary) = screen { return summary.link }
        return nil
    }
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

extension KioskState {
    /// The summary on show, if any: the summary screen's round, or the last round on the idle
    /// board (with its "Last round" heading).
    public var summaryOnShow: (snapshot: RoundSnapshot, heading: Bool)? {
        switch screen {
        case .summary(let summary): return summarySnapshot(summary.roundID).map { ($0, false) }
        case .board where round == nil: return data.lastCompleted.map { ($0, true) }
        default: return nil
        }
    }

    /// The summary's pages on this screen with these settings.
    public func summaryPages(_ snapshot: RoundSnapshot, heading: Bool) -> Layout.BoardPages {
        Layout(viewport: viewport).summaryPages(
            snapshot.standings.rows, heading: heading, qr: summaryLinkOnShow != nil, rowsPerPage: settings.boardRowsPerPage)
    }

    /// The summary's page at `now`. It turns with the clock, one page a board interval: the
    /// card stays up for hours on an idle kiosk, so nobody's page is more than a few
    /// intervals away, and no state is needed to follow it.
    public func summaryPage(at now: Millis) -> Int {
        guard let (snapshot, heading) = summaryOnShow else { return 0 }
        let pages = summaryPages(snapshot, heading: heading)
        return pages.rotates ? Int((now / settings.boardPageInterval) % Millis(pages.pages)) : 0
    }

    /// When a paging summary turns its page next; nil when none is on show or it fits.
    func summaryPageFlip(after now: Millis) -> Millis? {
        guard let (snapshot, heading) = summaryOnShow, summaryPages(snapshot, heading: heading).rotates else {
            return nil
        }
        return clockPageFlip(after: now)
    }

    /// When the clock's next page interval begins (screens that page with the clock).
    func clockPageFlip(after now: Millis) -> Millis {
        (now / settings.boardPageInterval + 1) * settings.boardPageInterval
    }
}
