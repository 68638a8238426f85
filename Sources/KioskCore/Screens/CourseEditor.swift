import Foundation
import HyzerKit

/// A course as it is being made or changed at the kiosk (FR5–FR7): a default par for every
/// hole and the holes that differ (FR6), so turning the default moves every ordinary hole
/// at once and leaves the exceptions alone.
public struct CourseDraft: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var holeCount: Int
    public var defaultPar: Int
    /// Hole number → par, only where it differs from `defaultPar`.
    public var exceptions: [Int: Int]

    /// A new course: 18 holes of par 3, the usual layout (FR6's default).
    public init(id: UUID = UUID(), name: String = "") {
        self.id = id
        self.name = name
        holeCount = Course.defaultHoleCount
        defaultPar = Course.defaultPar
        exceptions = [:]
    }

    /// An existing course: its commonest par is the default, the other holes exceptions.
    public init(_ course: Course) {
        id = course.id
        name = course.name
        holeCount = course.holeCount
        let counts = Dictionary(course.pars.map { ($0, 1) }, uniquingKeysWith: +)
        // The commonest par; a tie goes to the lower one, so the same course always opens the same way.
        defaultPar = counts.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key ?? Course.defaultPar
        exceptions = [:]
        for (index, par) in course.pars.enumerated() where par != defaultPar { exceptions[index + 1] = par }
    }

    public func par(of hole: Int) -> Int { exceptions[hole] ?? defaultPar }
    public var pars: [Int] { (1...max(holeCount, 1)).map(par(of:)) }

    /// The course, or the domain's reason it is not one.
    public func course() throws(CourseError) -> Course { try Course(id: id, name: name, pars: pars) }

    /// Fewer holes drop the exceptions past the end; more holes start at the default.
    mutating func setHoleCount(_ count: Int) {
        holeCount = count
        exceptions = exceptions.filter { $0.key <= count }
    }

    /// Every ordinary hole's par; a hole whose exception it now equals becomes ordinary.
    mutating func setDefaultPar(_ par: Int) {
        defaultPar = par
        exceptions = exceptions.filter { $0.value != par }
    }

    mutating func setPar(_ par: Int, of hole: Int) {
        exceptions[hole] = par == defaultPar ? nil : par
    }
}

extension Screen {
    /// Making or changing a course with the knob (issue 14 item 3). The rows are its name,
    /// hole count, default par, Save, Delete (an existing course only), then one row per
    /// hole. A press on a number starts changing it (the knob turns the number, not the
    /// list), a second press sets it. A long press leaves without saving.
    public struct CourseEditor: Sendable, Equatable {
        /// Where the editor was opened from, and so where it goes back to.
        public enum Origin: Sendable, Equatable {
            /// The "Courses" list of the menu.
            case courseList
            /// Round setup's course list: a new course is then picked for the round.
            case setupCourse
        }

        public enum Row: Sendable, Equatable {
            case name, holes, par, save, delete
            case hole(Int)
        }

        public var draft: CourseDraft
        public var isNew: Bool
        public var origin: Origin
        public var cursor: Int
        /// The knob changes the number on the cursor's row instead of moving between rows.
        public var adjusting: Bool

        public init(draft: CourseDraft, isNew: Bool, origin: Origin, cursor: Int = 0, adjusting: Bool = false) {
            self.draft = draft
            self.isNew = isNew
            self.origin = origin
            self.cursor = cursor
            self.adjusting = adjusting
        }

        /// The editor of a new course, opened on its name: a course is named first.
        static func create(origin: Origin, in state: inout KioskState) {
            let editor = CourseEditor(draft: CourseDraft(), isNew: true, origin: origin)
            state.screen = .nameEntry(Screen.NameEntry(.courseName(editor), in: state))
        }

        public var rows: [Row] {
            [.name, .holes, .par, .save] + (isNew ? [] : [.delete]) + (1...max(draft.holeCount, 1)).map { .hole($0) }
        }

        public var row: Row { rows[min(cursor, rows.count - 1)] }

        /// Where leaving goes: the list it came from, on this course.
        func leave(in state: inout KioskState) {
            let index = state.data.courses.firstIndex { $0.id == draft.id }
            switch origin {
            case .courseList: state.screen = .courseList(cursor: index ?? 0)
            case .setupCourse: state.screen = .setupCourse(cursor: index ?? 0)
            }
        }

        /// Checks the draft as the store would, plus a name no other course has; then saves.
        func save(in state: inout KioskState, now: Millis) -> [KioskEffect] {
            let course: Course
            do {
                course = try draft.course()
            } catch {
                return state.refuse(Self.sentence(error), now: now)
            }
            if let taken = nameTaken(course.name, in: state.data) { return state.refuse(taken, now: now) }
            if isNew && origin == .setupCourse {
                // Straight on to who is playing, on the new course.
                state.screen = .setupPlayers(courseID: course.id, selected: [], cursor: 0)
            } else {
                state.screen = .courseList(
                    Screen.CourseList(cursor: state.data.courses.firstIndex { $0.id == course.id } ?? 0, focus: course.id))
            }
            return [.buzz(.confirm), .saveCourse(course)]
        }

        /// What the screen says when another course already has `name` (two courses of one
        /// name could not be told apart on the setup list); nil when none has.
        func nameTaken(_ name: String, in data: KioskData) -> String? {
            data.courses.named(name, except: draft.id).map { "A course named \($0.name) already exists" }
        }

        static func sentence(_ error: CourseError) -> String {
            switch error {
            case .emptyName: "Enter the course's name first"
            case .nameTooLong: "A course name has at most \(Course.maxNameLength) characters"
            case .invalidHoleCount:
                "A course has \(Course.allowedHoleCounts.lowerBound) to \(Course.allowedHoleCounts.upperBound) holes"
            case .invalidPar(let hole, _):
                "Par on hole \(hole) must be \(Course.allowedPars.lowerBound) to \(Course.allowedPars.upperBound)"
            case .unknownHole(let hole, let count): "Hole \(hole) is not on a \(count)-hole course"
            }
        }
    }
}

extension Screen.CourseEditor: ScreenBehavior {
    var name: String { "course-editor" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var editor = self
        guard adjusting else {
            return state.moveCursor(cursor, by: steps, count: rows.count) {
                editor.cursor = $0
                return .courseEditor(editor)
            }
        }
        let (value, range): (Int, ClosedRange<Int>) =
            switch row {
            case .holes: (draft.holeCount, Course.allowedHoleCounts)
            case .par: (draft.defaultPar, Course.allowedPars)
            case .hole(let hole): (draft.par(of: hole), Course.allowedPars)
            case .name, .save, .delete: (0, 0...0)
            }
        let wanted = value + steps
        let clamped = min(max(wanted, range.lowerBound), range.upperBound)
        switch row {
        case .holes: editor.draft.setHoleCount(clamped)
        case .par: editor.draft.setDefaultPar(clamped)
        case .hole(let hole): editor.draft.setPar(clamped, of: hole)
        case .name, .save, .delete: break
        }
        state.screen = .courseEditor(editor)
        return wanted == clamped ? [] : [.buzz(.limit)]
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        var editor = self
        switch row {
        case .name:
            state.screen = .nameEntry(Screen.NameEntry(.courseName(self), in: state))
        case .holes, .par, .hole:
            editor.adjusting.toggle()
            state.screen = .courseEditor(editor)
        case .save:
            return save(in: &state, now: now)
        case .delete:
            return state.guarded(.deleteCourse(self), now: now)
        }
        return []
    }

    /// Out, nothing saved; while a number is being changed, a long press leaves too (the
    /// rule is the same everywhere: a long press backs out without saving).
    func back(in state: inout KioskState) { leave(in: &state) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        var editor = self
        editor.adjusting = false
        return state.touchList(layout, y: y, rows: rows.count, cursor: cursor, now: now) {
            editor.cursor = $0
            return .courseEditor(editor)
        }
    }

    /// The course was deleted on another device while it was being changed here: saying so
    /// beats saving into a tombstone (which the store would refuse anyway).
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard !isNew, old.courses.contains(where: { $0.id == draft.id }),
            !state.data.courses.contains(where: { $0.id == draft.id })
        else { return }
        let name = old.courses.first { $0.id == draft.id }?.name ?? draft.name
        leave(in: &state)
        _ = state.refuse("\(name) was deleted on another device", now: now)
    }
}
