/// `.help`, generated from the command table, and the message for a command it lacks.
extension Session {
    func showHelp(for name: String?) throws(CommandError) {
        guard let name else {
            let width = CommandTable.commands.map(\.synopsis.count).max() ?? 0
            let lines = CommandTable.commands.map { $0.synopsis.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.help }
            return say("help", ["commands": .list(CommandTable.commands.map(\.summary))], lines: lines)
        }
        let bare = name.hasPrefix(".") ? String(name.dropFirst()) : name
        guard let command = CommandTable.command(named: bare) else { throw unknownCommand(bare) }
        let also = command.aliases.isEmpty ? [] : ["  also: " + command.aliases.map { "." + $0 }.joined(separator: ", ")]
        say("help", ["commands": .list([command.summary])], lines: [command.synopsis, "  " + command.help] + also)
    }

    func unknownCommand(_ name: String) -> CommandError {
        let hint = DidYouMean(name, among: CommandTable.commands.flatMap { [$0.name] + $0.aliases }, prefix: ".").hint
        return CommandError("unknown command \".\(name)\"\(hint) (.help lists the commands)")
    }
}
