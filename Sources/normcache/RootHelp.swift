import ArgumentParser

/// `normcache --help`: swift-argument-parser lists a command's own options only, and the
/// root's are `--version` and `--help`, while `normcache` alone runs the REPL, whose options
/// matter most (it does not show a default subcommand's options at the root,
/// apple/swift-argument-parser#143). So the root's help takes the options section of
/// `normcache repl --help`, which holds the root's two as well; each listing is the
/// parser's own, so neither can drift from what is parsed (Tests/CLI/cli_test.sh checks).
///
/// ```text
/// $ normcache --help
/// USAGE: normcache [<options>]          (the REPL, as normcache repl)
/// OPTIONS:
///   --cache-dir <DIR>       Keep per-user caches in DIR/USER.sqlite (else in memory).
///   …
/// SUBCOMMANDS:
///   repl (default)          Start the REPL …
/// ```
extension Normcache {
    /// As swift-argument-parser's `main()`, but a request for the root's help prints ``rootHelp(columns:)``.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .success, fullMessage(for: error) == helpMessage() {
                print(rootHelp())
                exit()
            }
            exit(withError: error)
        }
    }

    /// The root's help with the REPL's options section in place of its own.
    static func rootHelp(columns: Int? = nil) -> String {
        var help = helpMessage(columns: columns)
        let repl = helpMessage(for: Repl.self, columns: columns)
        guard let own = optionsSection(of: help), let options = optionsSection(of: repl) else { return help }
        help.replaceSubrange(own, with: repl[options].reversed().drop { $0 == "\n" }.reversed())
        return help
    }

    /// The `OPTIONS:` section of a help screen, up to the blank line that ends it.
    private static func optionsSection(of help: String) -> Range<String.Index>? {
        guard let start = help.firstRange(of: "\nOPTIONS:\n")?.lowerBound else { return nil }
        let end = help[start...].dropFirst().firstRange(of: "\n\n")?.lowerBound ?? help.endIndex
        return start..<end
    }
}
