import HyzerHarness
import Testing

/// `--help` and `help` print the usage and exit 0 on every executable. `hyzer` runs its own
/// `main` (to print run-time failures in one line), and for a while that turned a request
/// for help into "hyzer: CommandError(…)" with exit 1.
@Suite struct HelpTests {
    @Test(arguments: [["--help"], ["help"], ["help", "standings"], ["standings", "--help"]])
    func hyzerPrintsItsHelp(_ arguments: [String]) async throws {
        let result = try await Binary.run("hyzer", arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stdout.contains("USAGE: hyzer"), "\(arguments): \(result.stdout)")
        #expect(!result.stderr.contains("CommandError"))
    }

    @Test func anUnknownSubcommandIsAUsageError() async throws {
        let result = try await Binary.run("hyzer", ["nonsense"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unexpected argument 'nonsense'"))
    }

    @Test(arguments: ["hyzer-server", "hyzer-kiosk"])
    func theOtherExecutablesPrintTheirHelp(_ name: String) async throws {
        let result = try await Binary.run(name, ["--help"])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout.contains("USAGE:"))
    }
}
