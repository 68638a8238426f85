import ArgumentParser
import Foundation
import Logging

@main
struct Hyzer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer",
        abstract: "Hyzer admin and device tool: set up data, add demo rounds, check standings.",
        subcommands: [
            Init.self, Demo.self, Standings.self, HistoryCommand.self, PlayerCommand.self, Device.self, Score.self, Voice.self,
            Sync.self, Knob.self, Discrepancies.self, Resolve.self, RoundCommand.self, CourseCommand.self,
        ]
    )

    /// ArgumentParser prints its "Usage:" block for every error a command throws that it
    /// does not know; only a parse or validation error is a usage error. Everything else a
    /// command throws at run time is printed as one line (`oneLine`) and exits 1.
    static func main() async {
        // A command reports its own failure in one line; the store's log lines are for a
        // kiosk's journal, and only a critical one (a damaged database repaired) is worth
        // a second line here.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .critical
            return handler
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch let error where error is ValidationError || error is ExitCode || error is CleanExit {
            exit(withError: error)
        } catch let error where exitCode(for: error) == .success {
            // `--help` and `hyzer help`: parsing returns ArgumentParser's help command, whose
            // run throws the request for help; it prints the help and exits 0.
            exit(withError: error)
        } catch {
            printError("hyzer: \(oneLine(error))")
            Foundation.exit(1)
        }
    }
}
