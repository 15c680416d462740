import Foundation

/// `normcache diff A.sqlite B.sqlite`: the ``CacheDiff`` of two cache files, both opened
/// read-only (``CacheDiff/reading(_:busyTimeout:_:)``), printed as text or as the JSON
/// `diff` event. The exit status is diff(1)'s: 0 when they hold the same records, 1 when
/// they differ, 2 on trouble: not two files, a bad glob, a file that cannot be read (an
/// error naming it, nothing else printed), or a damaged one whose warnings follow the
/// diff of what could be read.
///
/// ```swift
/// FileDiff.run(files: ["before.sqlite", "after.sqlite"], keys: "Human:*", json: false, busyTimeout: 5000)   // 1
/// ```
package enum FileDiff {
    package static func run(files: [String], keys pattern: String?, json: Bool, busyTimeout: Int) -> Int32 {
        let console = Console(), terminal = Terminal.standardOutput()
        let printer = Printer(line: console.line, error: console.error, colour: terminal?.paints(!json) ?? false, terminal: terminal)
        printer.mode = json ? .json : .tree
        defer { fflush(nil) }
        guard files.count == 2 else {
            let given = files.isEmpty ? "none" : "\(files.count): " + files.joined(separator: " ")
            printer.emit(.error(message: "normcache diff takes two cache files, A and B, not \(given) (usage: \(usage))", at: nil, source: nil))
            return 2
        }
        do {
            let ((diff, warningsOfB), warningsOfA) = try CacheDiff.reading(files[0], busyTimeout: busyTimeout) { a in
                try CacheDiff.reading(files[1], busyTimeout: busyTimeout) { b in try CacheDiff(a, b, keys: pattern) }
            }
            printer.emit(.diff(a: files[0], b: files[1], diff))
            let warnings = warningsOfA + warningsOfB
            for warning in warnings { printer.emit(.warning(warning)) }
            return warnings.isEmpty ? (diff.isEmpty ? 0 : 1) : 2
        } catch {
            printer.emit(.error(message: "\(error)", at: nil, source: nil))
            return 2
        }
    }

    /// How the subcommand is called, for its help and its errors.
    package static let usage = "normcache diff A.sqlite B.sqlite [--keys GLOB] [--json]"
}
