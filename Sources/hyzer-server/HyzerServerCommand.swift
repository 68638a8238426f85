// hyzer-server: the group's sync server. Thin: everything lives in HyzerServer. The root
// command is here, as `hyzer`'s is in Hyzer.swift; each subcommand has a file of its own
// (ServeCommand.swift, …).
import ArgumentParser

@main
struct HyzerServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-server",
        abstract: "The Hyzer group server: push/pull sync with a live poke socket.",
        subcommands: [Serve.self, GroupCommand.self, DeviceCommand.self, Backup.self, Restore.self],
        defaultSubcommand: Serve.self)
}
