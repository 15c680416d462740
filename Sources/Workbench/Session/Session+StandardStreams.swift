/// The session the `normcache` command runs: on the process's standard streams.
extension Session {
    /// A session printing through `console` to the process's standard streams, coloured
    /// when asked for, standard output is a terminal and `NO_COLOR` is not set, its tables
    /// fitting that terminal; nil, after saying why, when its cache cannot open.
    static func onStandardStreams(_ options: SessionOptions, console: Console) -> Session? {
        var options = options
        options.terminal = Terminal.standardOutput()
        options.colour = options.terminal?.paints(options.colour) ?? false
        do { return try Session(options: options, output: console.line, errors: console.error) } catch {
            console.error("error: \(error)")
            return nil
        }
    }
}
