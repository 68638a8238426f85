import ArgumentParser
import Foundation
import HyzerSystem
import Logging

@main
struct Hyzer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer",
        abstract: "Hyzer admin and device tool: set up data, add demo rounds, check standings.",
        discussion: "Every command takes --log-level LEVEL (\(HyzerLogging.levels.joined(separator: ", ")); default critical).",
        subcommands: [
            Init.self, Demo.self, Standings.self, HistoryCommand.self, PlayerCommand.self, Device.self, Score.self, Voice.self,
            Sync.self, Knob.self, Discrepancies.self, Resolve.self, RoundCommand.self, EventCommand.self, CourseCommand.self,
            DurabilityCheck.self, ImportCommand.self, ExportCommand.self, SeasonCommand.self, StatsCommand.self,
        ]
    )

    /// ArgumentParser prints its "Usage:" block for every error a command throws that it
    /// does not know; only a parse or validation error is a usage error. Everything else a
    /// command throws at run time is printed as one line (`oneLine`) and exits 1.
    static func main() async {
        // A command reports its own failure in one line; the store's log lines are for a
        // kiosk's journal, and only a critical one (a damaged database repaired) is worth
        // a second line here, unless --log-level asks for more.
        var arguments = Array(CommandLine.arguments.dropFirst())
        let command: any ParsableCommand
        do {
            HyzerLogging.bootstrap(level: try HyzerLogging.takeLevel(from: &arguments) ?? .critical)
            command = try parseAsRoot(arguments)
        } catch let error as LogLevelError {
            printError("hyzer: \(error)")
            Foundation.exit(64)
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
