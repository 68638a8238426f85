import Foundation
import HyzerKit

/// The facts the status screen shows, gathered by the shell (store, sync link, knob,
/// display, network) and handed to the machine as `.statusChanged`: the machine only
/// keeps and shows them.
public struct KioskStatus: Sendable, Equatable {
    /// The group this kiosk syncs with; nil when it is not enrolled.
    public struct Group: Sendable, Equatable {
        public var server: String
        public var group: String
        public var deviceName: String
        /// Local records not yet on the server.
        public var pending: Int
        /// Local records the server refused for good.
        public var refused: Int
        /// The server database's epoch this device follows; nil before the first pull.
        public var epoch: String?

        public init(server: String, group: String, deviceName: String, pending: Int, refused: Int, epoch: String?) {
            self.server = server
            self.group = group
            self.deviceName = deviceName
            self.pending = pending
            self.refused = refused
            self.epoch = epoch
        }
    }

    public struct Knob: Sendable, Equatable {
        /// "gpiod", "simulated", "keyboard".
        public var backend: String
        /// The chip and lines in use (the backend's own description), if any.
        public var lines: String?
        /// The last knob fault and what to do about it.
        public var error: String?
        public var fix: String?

        public init(backend: String, lines: String? = nil, error: String? = nil, fix: String? = nil) {
            self.backend = backend
            self.lines = lines
            self.error = error
            self.fix = fix
        }
    }

    public struct Display: Sendable, Equatable {
        public var driver: String
        public var renderer: String
        public var width: Int
        public var height: Int
        /// Median and 99th percentile of the recent frames' drawing times, in ms; nil before any frame.
        public var drawP50: Double?
        public var drawP99: Double?
        /// How many recent frames the percentiles cover.
        public var frames: Int

        public init(
            driver: String, renderer: String, width: Int, height: Int, drawP50: Double? = nil, drawP99: Double? = nil,
            frames: Int = 0
        ) {
            self.driver = driver
            self.renderer = renderer
            self.width = width
            self.height = height
            self.drawP50 = drawP50
            self.drawP99 = drawP99
            self.frames = frames
        }
    }

    public struct Storage: Sendable, Equatable {
        /// Where the databases live; nil for an in-memory store.
        public var directory: String?
        /// The databases' files, WAL included.
        public var databaseBytes: Int64?
        public var freeBytes: Int64?
        /// Below this much free space the screen warns: the store's own threshold, passed in.
        public var warnBelow: Int64?

        public init(directory: String? = nil, databaseBytes: Int64? = nil, freeBytes: Int64? = nil, warnBelow: Int64? = nil) {
            self.directory = directory
            self.databaseBytes = databaseBytes
            self.freeBytes = freeBytes
            self.warnBelow = warnBelow
        }
    }

    public var group: Group?
    public var knob: Knob
    public var display: Display?
    public var storage: Storage
    public var version: String
    /// This kiosk's addresses, loopback left out.
    public var addresses: [String]

    public init(
        group: Group? = nil, knob: Knob = Knob(backend: "keyboard"), display: Display? = nil, storage: Storage = Storage(),
        version: String = "", addresses: [String] = []
    ) {
        self.group = group
        self.knob = knob
        self.display = display
        self.storage = storage
        self.version = version
        self.addresses = addresses
    }

    /// How a kiosk joins a group: shown when it is not in one (the CLI's real syntax).
    public static let joinHint = "hyzer device enroll --server URL --group-token TOKEN --name NAME"
}

extension Screen {
    /// The maintainer's status screen, from the menu: what the kiosk is connected to and how it is.
    /// `refreshAt` is when the shown facts are gathered again (only while this screen is up: an
    /// idle board never wakes for them).
    public struct Status: Sendable, Equatable {
        public var cursor: Int
        public var refreshAt: Millis
        public init(cursor: Int, refreshAt: Millis) {
            self.cursor = cursor
            self.refreshAt = refreshAt
        }

        /// Facts change slowly (a sync, a few MB); every 2 s is fresh enough to watch a sync
        /// drain and costs a few file stats.
        public static let refreshInterval: Millis = 2_000
    }

    /// The status screen as the menu opens it: facts are asked for at once.
    static func status(cursor: Int = 0, now: Millis) -> Screen {
        .status(Status(cursor: cursor, refreshAt: now + Status.refreshInterval))
    }
}

/// The status screen's two entries, below the facts.
public enum StatusItem: Sendable, Equatable, CaseIterable {
    case testBuzzer, back

    public var title: String {
        switch self {
        case .testBuzzer: "Test the buzzer"
        case .back: "Back to the menu"
        }
    }
}

extension Screen.Status: ScreenBehavior {
    var name: String { "status" }

    static let items = StatusItem.allCases

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        let refreshAt = refreshAt
        return state.moveCursor(cursor, by: steps, count: Self.items.count) {
            .status(Screen.Status(cursor: $0, refreshAt: refreshAt))
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch Self.items[min(cursor, Self.items.count - 1)] {
        case .testBuzzer:
            // The confirm pattern is what a saved score plays: the one to check by ear.
            state.notice = Notice(text: "Buzzer: a short beep should sound now", kind: .info, shownAt: now)
            return [.buzz(.confirm)]
        case .back:
            back(in: &state)
            return []
        }
    }

    /// Back to the menu, on the entry that opened this screen.
    func back(in state: inout KioskState) {
        state.screen = .menu(cursor: state.menuItems.firstIndex(of: .status) ?? 0)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let buttons = layout.statusButtons(count: Self.items.count)
        guard let index = buttons.firstIndex(where: { $0.contains(x: x, y: y) }) else { return [] }
        state.screen = .status(Screen.Status(cursor: index, refreshAt: refreshAt))
        return state.press(now: now)
    }

    var refreshDue: Millis? { refreshAt }

    func refresh(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.screen = .status(Screen.Status(cursor: cursor, refreshAt: now + Self.refreshInterval))
        return [.refreshStatus]
    }
}

extension Layout {
    /// The status screen's fact area: between the title and the buttons.
    public var statusFacts: Rect {
        let buttons = statusButtonRow
        return Rect(x: margin, y: listTitle.maxY, w: width - 2 * margin, h: buttons.y - listTitle.maxY - margin / 2)
    }

    /// The band the status screen's buttons sit in, above the footer.
    var statusButtonRow: Rect {
        let h = (listRowHeight * 0.8).rounded(.down)
        return Rect(x: margin, y: footer.y - h - margin / 2, w: width - 2 * margin, h: h)
    }

    /// The status screen's buttons, side by side: drawn and hit-tested with the same rects.
    public func statusButtons(count: Int) -> [Rect] {
        let row = statusButtonRow
        let gap = margin
        let w = ((row.w - gap * Double(count - 1)) / Double(max(count, 1))).rounded(.down)
        return (0..<count).map { Rect(x: row.x + Double($0) * (w + gap), y: row.y, w: w, h: row.h) }
    }
}

/// One block of the status screen ("Sync", "Knob", …): a heading and labelled lines.
public struct StatusSection: Sendable, Equatable {
    public enum Tone: Sendable, Equatable {
        case normal
        /// Something a person should act on (a fault, low space).
        case warning
        /// How to do something (join a group, fix a fault).
        case hint
    }

    public struct Line: Sendable, Equatable {
        public var label: String
        public var value: String
        public var tone: Tone
        public init(_ label: String, _ value: String, tone: Tone = .normal) {
            self.label = label
            self.value = value
            self.tone = tone
        }
    }

    public var title: String
    public var lines: [Line]
}

extension KioskState {
    /// The status screen's text, decided here so that tests read what the screen says and the
    /// renderer only lays it out. `wallClock` turns the last sync into "2 min ago".
    public func statusSections(wallClock: Date) -> [StatusSection] {
        guard let status else {
            return [StatusSection(title: "Status", lines: [.init("", "Reading the kiosk's status…")])]
        }
        return [
            syncSection(status.group, directory: status.storage.directory, wallClock: wallClock),
            knobSection(status.knob),
            displaySection(status.display), storageSection(status.storage),
            StatusSection(
                title: "This kiosk",
                lines: [
                    .init("Version", status.version.isEmpty ? "unknown" : status.version),
                    .init("Address", status.addresses.isEmpty ? "no network" : status.addresses.joined(separator: ", ")),
                ] + (lastFailure.map { [.init("Last error", $0, tone: .warning)] } ?? [])),
        ]
    }

    private func syncSection(_ group: KioskStatus.Group?, directory: String?, wallClock: Date) -> StatusSection {
        guard let group else {
            return StatusSection(
                title: "Sync",
                lines: [
                    .init("Group", "Not in a group — Menu → Join a group", tone: .warning),
                    .init("Or", KioskStatus.joinHint + (directory.map { " --data \($0)" } ?? ""), tone: .hint),
                ])
        }
        let last: String
        if let synced = sync.lastSynced {
            let minutes = Int(wallClock.timeIntervalSince(synced) / 60)
            last = minutes < 1 ? "just now" : minutes < 120 ? "\(minutes) min ago" : "\(minutes / 60) h ago"
        } else {
            last = "never"
        }
        var state = sync.state.rawValue
        if let detail = sync.detail { state += ": \(detail)" }
        return StatusSection(
            title: "Sync",
            lines: [
                .init("Server", group.server),
                .init("Group", "\(group.group) · device \"\(group.deviceName)\""),
                .init(
                    "Last sync", "\(last) · \(state)", tone: sync.state == .error || sync.state == .offline ? .warning : .normal),
                .init(
                    "Records", "\(group.pending) pending · \(group.refused) refused · epoch \(group.epoch ?? "none yet")",
                    tone: group.refused > 0 ? .warning : .normal),
            ])
    }

    private func knobSection(_ knob: KioskStatus.Knob) -> StatusSection {
        var lines: [StatusSection.Line] = [.init("Backend", knob.backend)]
        if let used = knob.lines { lines.append(.init("Lines", used)) }
        if let error = knob.error {
            lines.append(.init("Error", error, tone: .warning))
            if let fix = knob.fix { lines.append(.init("Fix", fix, tone: .hint)) }
        }
        return StatusSection(title: "Knob", lines: lines)
    }

    private func displaySection(_ display: KioskStatus.Display?) -> StatusSection {
        guard let display else { return StatusSection(title: "Display", lines: [.init("Driver", "unknown")]) }
        let frames =
            if let p50 = display.drawP50, let p99 = display.drawP99 {
                String(format: "draw p50 %.1f ms · p99 %.1f ms (last %d frames)", p50, p99, display.frames)
            } else {
                "not measured yet"
            }
        return StatusSection(
            title: "Display",
            lines: [
                .init("Driver", "\(display.driver) · \(display.renderer) · \(display.width)×\(display.height)"),
                .init("Frames", frames),
            ])
    }

    private func storageSection(_ storage: KioskStatus.Storage) -> StatusSection {
        func megabytes(_ bytes: Int64?) -> String {
            guard let bytes else { return "unknown" }
            if bytes >= 10_000_000_000 { return String(format: "%.1f GB", Double(bytes) / 1e9) }
            return bytes < 10_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : "\(bytes / 1_000_000) MB"
        }
        var lines: [StatusSection.Line] = [
            .init("Database", storage.directory.map { "\(megabytes(storage.databaseBytes)) in \($0)" } ?? "in memory"),
            .init("Free", megabytes(storage.freeBytes)),
        ]
        if let free = storage.freeBytes, let threshold = storage.warnBelow, free < threshold {
            lines[1].tone = .warning
            lines[1].value += " · low: below \(threshold / 1_000_000) MB"
        }
        // The same line the board shows as a notice while it lasts (read-only, full).
        if let storageWarning { lines.append(.init("Fault", storageWarning, tone: .warning)) }
        return StatusSection(title: "Storage", lines: lines)
    }
}
