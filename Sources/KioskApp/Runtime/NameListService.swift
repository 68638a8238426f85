import Foundation
import KioskCore
import Logging
import ServiceLifecycle

/// Reads the bundled first names and builds the name wheel's index when the kiosk leaves its
/// board holding none, and hands it to the screens through the inbox. The session lets the
/// index go when the board is back (`KioskSession.onNameListNeeded`) and asks again later.
///
/// It is a service, not a step of start-up, because nothing on the first frame needs it:
/// building the index of the 3,000 names the list then held on the main thread before the
/// board appeared doubled the kiosk's launch (89–118 ms against 44–53). And it waits to be
/// asked (`requestList`, which the session calls when a screen other than the board opens:
/// `KioskSession.likelyNext`), because a kiosk showing the board never needs it: built
/// after the first frame regardless, it was most of an idle kiosk's CPU in its first
/// minute (issue 8). From the menu to the name wheel is several presses; reading and
/// indexing the list's 91,000 names takes about 140 ms here (`hyzer-bench name-entry`),
/// and the wheel works without it meanwhile.
struct NameListService: Service {
    let file: URL
    let inbox: KioskInbox
    let logger: Logger
    private let asks: AsyncStream<Void>
    private let askSink: AsyncStream<Void>.Continuation

    init(file: URL, inbox: KioskInbox, logger: Logger) {
        self.file = file
        self.inbox = inbox
        self.logger = logger
        (asks, askSink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for the index; asks that come while one is built are one.
    func requestList() { askSink.yield() }

    func run() async throws {
        for await _ in asks.cancelOnGracefulShutdown() {
            // Without the list the wheel still works (players' names, then the alphabet), so a
            // missing or unreadable file is logged, not fatal.
            guard let lexicon = NameLexicon.read(file, logger: logger) else { continue }
            inbox.post(.event(.nameListLoaded(lexicon)))
            // What the index costs the kiosk, in its log: the emulated appliance's probe reads
            // this line. (Trimming malloc here gave back nothing: the arena the build ran in
            // stayed 9.6 MB, the index itself, with its transients' pages already reused. The
            // index's own pages go back when the session lets it go.)
            if let heap = Allocator.usage() {
                logger.info(
                    "name list indexed",
                    metadata: [
                        "names": "\(lexicon.count)", "malloc_in_use_mb": "\(heap.inUse >> 20)",
                        "malloc_free_mb": "\(heap.free >> 20)",
                    ])
            }
        }
    }
}

extension NameLexicon {
    /// The bundled list at `file`, or nil (logged) when it cannot be read.
    static func read(_ file: URL, logger: Logger) -> NameLexicon? {
        do {
            return NameLexicon(tsv: try String(contentsOf: file, encoding: .utf8))
        } catch {
            logger.warning("the name wheel's list \(file.path) could not be read: \(error)")
            return nil
        }
    }
}
