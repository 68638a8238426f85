import ArgumentParser

@main
struct Hyzer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer",
        abstract: "Hyzer admin and device tool: set up data, add demo rounds, check standings.",
        subcommands: [
            Init.self, Demo.self, Standings.self, PlayerCommand.self, Device.self, Score.self, Voice.self, Sync.self, Knob.self,
        ]
    )
}
