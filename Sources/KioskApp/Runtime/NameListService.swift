import Foundation
import KioskCore
import Logging
import ServiceLifecycle

/// Reads the bundled first names and builds the name wheel's index, then hands it to the
/// screens through the inbox and returns.
///
/// It is a service, not a step of start-up, because nothing on the first frame needs it:
/// building the index of 3,000 names on the main thread before the board appeared doubled
/// the kiosk's launch (89–118 ms against 44–53). Services start once the first frame is on
/// screen, so this runs beside an idle board, long before anyone can turn to "Add a player".
struct NameListService: Service {
    let file: URL
    let inbox: KioskInbox
    let logger: Logger

    func run() async throws {
        // Without the list the wheel still works (players' names, then the alphabet), so a
        // missing or unreadable file is logged, not fatal.
        guard let lexicon = NameLexicon.read(file, logger: logger) else { return }
        inbox.post(.event(.nameListLoaded(lexicon)))
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
