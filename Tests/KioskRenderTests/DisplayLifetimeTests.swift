import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Synchronization
import Testing

/// SDL and SDL_ttf are process-wide, and a process may hold several displays at once (this
/// suite's neighbours do, as a bench's render thread beside a headless kiosk would): one
/// display going away must not stop the libraries under the others (`MediaLibraries`).
///
/// Negative controls (a race, so a share of runs: the failing one crashes the whole process):
/// with each display initializing and quitting SDL and SDL_ttf itself, as before, 1 run of 3
/// crashed inside FreeType at the address CI met when two drawing suites overlapped (stop 40);
/// with the count kept but faces opened and closed without the lock, 1 run of 5 crashed. With
/// both, 10 runs of 10 passed.
@Suite struct DisplayLifetimeTests {
    static let size = Viewport(width: 800, height: 480)

    /// A board with a round in play: text in every face the board uses.
    static func board() throws -> KioskState {
        let players = try ["Avery", "Blake", "Casey"].map { try Player(displayName: $0) }
        let course = try Course(name: "Riverside Long Loop", holeCount: 9)
        var round = Round(courseID: course.id, organizerID: players[0].id, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        for p in players { try round.add(.registered(p)) }
        try round.start(at: Date(timeIntervalSince1970: 1_800_000_060))
        var state = KioskState(viewport: size)
        state.handle(
            .dataChanged(
                KioskData(round: RoundSnapshot(round: round, course: course, events: []), courses: [course]), .localScore),
            now: 60_000)
        return state
    }

    static func frame(of state: KioskState, on display: Display) throws -> [UInt8] {
        display.draw(state, now: 60_000, wallClock: Date(timeIntervalSince1970: 1_800_000_100))
        return try display.capture().rgb
    }

    static func display(size: Viewport = size) throws -> Display {
        let assets = try #require(HyzerPaths.assetsDirectory(), "cannot find assets/")
        let display = try Display(mode: .headless, size: size, fontsDirectory: assets.appendingPathComponent("fonts"))
        display.fontFallback = false
        return display
    }

    /// One display draws the board over and over while seven threads open displays, draw the
    /// same board and close them: every frame on every display is the first one's, pixel for
    /// pixel, and nothing crashes.
    @Test func displaysComingAndGoingLeaveTheOthersDrawing() throws {
        let state = try Self.board()
        let reference = try Self.frame(of: state, on: Self.display())
        let mismatches = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                if worker == 0 {
                    let lasting = try Self.display()
                    for _ in 0..<200 where try Self.frame(of: state, on: lasting) != reference {
                        mismatches.withLock { $0 += 1 }
                    }
                } else {
                    for _ in 0..<60 {
                        let brief = try Self.display()
                        if try Self.frame(of: state, on: brief) != reference { mismatches.withLock { $0 += 1 } }
                    }
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(mismatches.withLock { $0 } == 0)
        // The libraries outlive every display above: one more opens and draws the same.
        #expect(try Self.frame(of: state, on: Self.display()) == reference)
    }

    /// Small displays opened and closed on eight threads with none lasting, so the libraries
    /// stop (`SDL_Quit`, which frees SDL's hints) and start again over and over while other
    /// threads are setting the hints for displays of their own: every one opens, and nothing
    /// crashes.
    ///
    /// Negative control: with the hints set before the libraries' lock, as before, 1 run of 6
    /// crashed in `strcmp` on a freed hint's name, the registers CI printed at stop 49. With
    /// them set under the lock, 10 runs of 10 passed.
    @Test func theLibrariesStoppingWhileOtherDisplaysOpen() throws {
        let opened = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<2_000 {
                do {
                    _ = try Self.display(size: Viewport(width: 2, height: 2))
                    opened.withLock { $0 += 1 }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(opened.withLock { $0 } == 8 * 2_000)
    }
}
