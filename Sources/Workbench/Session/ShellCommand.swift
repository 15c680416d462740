#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A command `.shell` runs: `/bin/sh -c COMMAND` in a folder (``Shell``), returning when
/// the shell exits, with its exit status and what it wrote to standard output and error,
/// as sqlite3's `.shell` runs one with `system()`. A command the shell starts in the
/// background (`server &`) runs on after that; what it writes later is read and dropped,
/// so it is never stopped by a closed pipe (send it to a file to keep it).
///
/// ```swift
/// let outcome = try ShellCommand(command: "echo hi; exit 3", folder: "/tmp").run()
/// outcome.status   // 3
/// outcome.output   // "hi\n"
/// ```
struct ShellCommand {
    let command: String
    let folder: String

    struct Outcome {
        /// The shell's exit status (``Shell/exitStatus(of:waiting:)``).
        let status: Int32
        let output: String
    }

    func run() throws(CommandError) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CommandError(".shell could not make a pipe: \(Shell.Errno(errno))") }
        let (reading, writing) = (ends[0], ends[1])
        let started = Shell.start(command, output: writing, folder: folder)
        close(writing)
        let pid: pid_t
        switch started {
        case .success(let child): pid = child
        case .failure(let error):
            close(reading)
            throw CommandError(".shell could not start /bin/sh: \(error)")
        }
        _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var exit: Int32?
        var ended = false   // every writer closed the pipe: nothing runs on in the background
        while true {
            let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
            if count > 0 { output += chunk[..<count]; continue }
            if count == 0 { ended = true; break }
            if errno == EINTR { continue }
            if exit != nil { break }  // the shell is gone and the pipe empty: a background command holds it
            exit = Shell.exitStatus(of: pid, waiting: false)
            if exit == nil {
                var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10)
            }
        }
        let status = exit ?? Shell.exitStatus(of: pid, waiting: true) ?? -1
        if ended { close(reading) } else { Self.drainInBackground(reading) }
        return Outcome(status: status, output: String(decoding: output, as: UTF8.self))
    }

    /// Reads and drops what the background commands write, until they have all closed the pipe.
    private static func drainInBackground(_ reading: Int32) {
        _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) & ~O_NONBLOCK)
        Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            close(reading)
        }.start()
    }
}
