/// `.help`, generated from the command table, and the message for a command it lacks.
extension Session {
    func showHelp(for name: String?) throws(CommandError) {
        guard let name else { return printer.emit(.help(CommandTable.commands)) }
        let bare = name.hasPrefix(".") ? String(name.dropFirst()) : name
        guard let command = CommandTable.command(named: bare) else { throw unknownCommand(bare) }
        printer.emit(.commandHelp(command))
    }

    func unknownCommand(_ name: String) -> CommandError {
        let hint = DidYouMean(name, among: CommandTable.commands.flatMap { [$0.name] + $0.aliases }, prefix: ".").hint
        return CommandError("unknown command \".\(name)\"\(hint) (.help lists the commands)")
    }
}
