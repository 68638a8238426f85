import Foundation

/// A disc-golf course: a par per hole (FR5, FR6).
///
/// Most courses have 9 or 18 holes, but a group plays what its park has: a 6-hole
/// pitch-and-putt, a 24-hole championship layout, 27 holes as three nines (issue 14).
/// Holes are numbered from 1. Per amendment A8 a hole refers to its course by a flat
/// id, so the course owns a plain array of pars rather than a graph of hole objects.
public struct Course: Sendable, Hashable, Codable, Identifiable {
    /// Any count in this range; 36 is two full rounds of an 18-hole course.
    public static let allowedHoleCounts: ClosedRange<Int> = 1...36
    /// A new course's hole count until it is changed: the usual full layout.
    public static let defaultHoleCount = 18
    /// Pars outside this range are almost certainly typos (a par-30 hole does not exist);
    /// 7 is the longest par a disc-golf course actually uses.
    public static let allowedPars: ClosedRange<Int> = 2...7
    public static let defaultPar = 3
    /// A course name is a board title: longer than this it no longer fits beside the
    /// round's progress at the smallest panel.
    public static let maxNameLength = 40

    public var id: UUID
    public var name: String
    /// `pars[0]` is hole 1.
    public private(set) var pars: [Int]

    public var holeCount: Int { pars.count }
    public var totalPar: Int { pars.reduce(0, +) }
    public var holes: ClosedRange<Int> { 1...pars.count }

    /// Validates everything: bad input is a typed error, never a crash.
    public init(id: UUID = UUID(), name: String, pars: [Int]) throws(CourseError) {
        let trimmed = try Course.validName(name)
        guard Course.allowedHoleCounts.contains(pars.count) else { throw .invalidHoleCount(pars.count) }
        for (index, par) in pars.enumerated() where !Course.allowedPars.contains(par) {
            throw .invalidPar(hole: index + 1, par: par)
        }
        self.id = id
        self.name = trimmed
        self.pars = pars
    }

    /// `name` as a course's name: trimmed; refused when empty or too long for the board.
    /// The one rule, for a course being made and for a name entered before its holes are.
    public static func validName(_ name: String) throws(CourseError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= Course.maxNameLength else { throw .nameTooLong(trimmed.count) }
        return trimmed
    }

    /// FR6: a default par for every hole, plus per-hole exceptions keyed by hole number.
    public init(
        id: UUID = UUID(), name: String, holeCount: Int,
        defaultPar: Int = Course.defaultPar, exceptions: [Int: Int] = [:]
    ) throws(CourseError) {
        guard Course.allowedHoleCounts.contains(holeCount) else { throw .invalidHoleCount(holeCount) }
        var pars = Array(repeating: defaultPar, count: holeCount)
        for (hole, par) in exceptions {
            guard (1...holeCount).contains(hole) else { throw .unknownHole(hole, holeCount: holeCount) }
            pars[hole - 1] = par
        }
        try self.init(id: id, name: name, pars: pars)
    }

    /// The same course as a round played it: `pars` are the pars the round started with
    /// (its snapshot), which a later edit of the course never changes. Empty `pars` (a
    /// round from before snapshots, with none recorded) means the course's own.
    public func played(with pars: [Int]) -> Course {
        guard !pars.isEmpty, pars != self.pars else { return self }
        var copy = self
        copy.pars = pars
        return copy
    }

    /// The par of `hole`, or nil when the course has no such hole.
    public func par(of hole: Int) -> Int? {
        holes.contains(hole) ? pars[hole - 1] : nil
    }
}

extension Collection where Element == Course {
    /// The course called `name` (case and surrounding spaces aside), other than `id`:
    /// two courses of one name could not be told apart on the setup list.
    public func named(_ name: String, except id: UUID? = nil) -> Course? {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return first { $0.id != id && $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
    }
}

public enum CourseError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName
    case nameTooLong(Int)
    case invalidHoleCount(Int)
    case invalidPar(hole: Int, par: Int)
    case unknownHole(Int, holeCount: Int)

    public var description: String {
        switch self {
        case .emptyName: "a course needs a name"
        case .nameTooLong(let n): "a course name has at most \(Course.maxNameLength) characters, not \(n)"
        case .invalidHoleCount(let n):
            "a course has \(Course.allowedHoleCounts.lowerBound) to \(Course.allowedHoleCounts.upperBound) holes, not \(n)"
        case .invalidPar(let hole, let par):
            "par \(par) on hole \(hole) is outside \(Course.allowedPars.lowerBound)–\(Course.allowedPars.upperBound)"
        case .unknownHole(let hole, let count): "hole \(hole) does not exist on a \(count)-hole course"
        }
    }
}
