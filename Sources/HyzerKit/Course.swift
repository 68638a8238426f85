import Foundation

/// A disc-golf course: 9 or 18 holes with a par per hole (FR5, FR6).
///
/// Holes are numbered from 1. Per amendment A8 a hole refers to its course by a flat
/// id, so the course owns a plain array of pars rather than a graph of hole objects.
public struct Course: Sendable, Hashable, Codable, Identifiable {
    public static let allowedHoleCounts: Set<Int> = [9, 18]
    /// Pars outside this range are almost certainly typos (a par-30 hole does not exist).
    public static let allowedPars: ClosedRange<Int> = 2...6
    public static let defaultPar = 3

    public var id: UUID
    public var name: String
    /// `pars[0]` is hole 1.
    public private(set) var pars: [Int]

    public var holeCount: Int { pars.count }
    public var totalPar: Int { pars.reduce(0, +) }
    public var holes: ClosedRange<Int> { 1...pars.count }

    /// Validates everything: bad input is a typed error, never a crash.
    public init(id: UUID = UUID(), name: String, pars: [Int]) throws(CourseError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard Course.allowedHoleCounts.contains(pars.count) else { throw .invalidHoleCount(pars.count) }
        for (index, par) in pars.enumerated() where !Course.allowedPars.contains(par) {
            throw .invalidPar(hole: index + 1, par: par)
        }
        self.id = id
        self.name = trimmed
        self.pars = pars
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

    /// The par of `hole`, or nil when the course has no such hole.
    public func par(of hole: Int) -> Int? {
        holes.contains(hole) ? pars[hole - 1] : nil
    }
}

public enum CourseError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName
    case invalidHoleCount(Int)
    case invalidPar(hole: Int, par: Int)
    case unknownHole(Int, holeCount: Int)

    public var description: String {
        switch self {
        case .emptyName: "a course needs a name"
        case .invalidHoleCount(let n): "a course has 9 or 18 holes, not \(n)"
        case .invalidPar(let hole, let par):
            "par \(par) on hole \(hole) is outside \(Course.allowedPars.lowerBound)–\(Course.allowedPars.upperBound)"
        case .unknownHole(let hole, let count): "hole \(hole) does not exist on a \(count)-hole course"
        }
    }
}
