import Foundation

/// `normcache run FILE...`: scripts run one after another in one session, `-` reading
/// standard input; the exit status says how it went (docs/workbench.md): 0 when every
/// command ran and every `.expect` held, 1 when an expectation failed, 2 when a command
/// failed or a script could not be read (`--bail`: the run stops there).
///
/// ```swift
/// let status = Batch.run(files: ["examples/offline-from-cache.repl"], options: SessionOptions())   // 0
/// ```
package enum Batch {
    package static func run(files: [String], options: SessionOptions) -> Int32 {
        guard let session = Session.onStandardStreams(options, console: Console()), session.runStartup(options) else { return 2 }
        var unreadable = false
        for file in files where !session.isFinished {
            do {
                if file == "-" {
                    session.run(script: String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self),
                                    named: Session.standardInputName)
                } else {
                    try session.run(file: file)
                }
            } catch {
                session.printer.emit(.error(message: "\(error)", at: nil, source: nil))
                unreadable = true
                if session.settings.bails { break }
            }
        }
        fflush(nil)
        return unreadable ? 2 : session.exitStatus
    }
}
