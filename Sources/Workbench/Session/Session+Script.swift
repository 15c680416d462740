import Foundation

/// Scripts and where output goes: `.read`, `normcache run`, `.output`, `.once`, `.shell`.
extension Session {
    /// How deep `.read` may nest before a script that reads itself is stopped.
    static let maximumScriptDepth = 32

    /// Runs every line of the script at `path` (relative to the script running now, if
    /// any), each line known by its file and number, until the end or until the session
    /// finishes. A command that fails is reported and the script goes on (unless `.bail on`);
    /// only a script that cannot be read throws.
    package func run(file path: String) throws {
        let resolved = resolve(path)
        guard scriptDepth < Self.maximumScriptDepth else {
            throw CommandError("\(resolved): scripts read each other more than \(Self.maximumScriptDepth) deep (does one read itself?)")
        }
        let text = try Self.readScript(resolved)
        run(script: text, named: resolved)
    }

    /// Runs the lines of `text` as the script `name` (`<stdin>` for standard input).
    package func run(script text: String, named name: String) {
        let outer = location
        scriptDepth += 1
        defer {
            scriptDepth -= 1
            location = outer
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            if isFinished { return }
            execute(String(line.hasSuffix("\r") ? line.dropLast() : line), at: SourceLocation(file: name, line: index + 1))
        }
        endInput()
    }

    /// The text of a script file, or an error that names the file and what is wrong with it.
    static func readScript(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CommandError("\(path): no such file") }
        guard !isDirectory.boolValue else { throw CommandError("\(path): is a directory, not a script") }
        // A file handle, not `FileManager.contents`: that reads regular files only, and a
        // script may come through a pipe (`/dev/stdin`, a shell's `<(…)`).
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandError("\(path): cannot be read (permissions?)") }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.readToEnd() ?? Data() } catch { throw CommandError("\(path): cannot be read (\(error.localizedDescription))") }
        guard let text = String(data: data, encoding: .utf8) else { throw CommandError("\(path): is not UTF-8 text") }
        return text
    }

    /// `path` as the running script sees it: relative to that script's folder.
    func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), let file = location?.file, file != Self.standardInputName else { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    static let standardInputName = "<stdin>"

    /// `.output FILE` (nil: back to standard output) and `.once FILE`.
    func redirect(to path: String?, once: Bool) throws {
        guard let path else { return printer.redirect(to: nil) }
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw CommandError("\(path): cannot be written")
        }
        printer.redirect(to: file, once: once)
    }

    /// `.shell COMMAND`: runs it with /bin/sh in the script's folder (``ShellCommand``),
    /// prints what it wrote, fails on a nonzero status.
    func shell(_ command: String) throws {
        guard !command.isEmpty else { throw CommandError("usage: .shell COMMAND") }
        let outcome = try ShellCommand(command: command, folder: resolve(".")).run()
        printer.emit(.shell(command: command, status: outcome.status, output: outcome.output))
        guard outcome.status == 0 else { throw CommandError(".shell: \"\(command)\" exited with status \(outcome.status)") }
    }
}

extension Session {
    /// What runs before the first prompt or script: `--init FILE`, else the user's init
    /// file when there is one (``UserFiles/initFile``); then each `-c COMMAND`, in order.
    /// Fails (returns false) only when the init file cannot be read.
    func runStartup(_ options: SessionOptions) -> Bool {
        if let file = options.initFile ?? UserFiles().initFile {
            do { try run(file: file) } catch {
                printer.emit(.error(message: "\(error)", at: nil, source: nil))
                return false
            }
        }
        for (index, command) in options.commands.enumerated() where !isFinished {
            execute(command, at: SourceLocation(file: "-c", line: index + 1))
        }
        return true
    }
}
