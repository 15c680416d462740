#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// A command `.shell` runs: `/bin/sh -c COMMAND` in a folder, returning when the shell
/// exits, with its exit status and what it wrote to standard output and error, as
/// sqlite3's `.shell` runs one with `system()`. A command the shell starts in the
/// background (`server &`) runs on after that; what it writes later is read and dropped,
/// so it is never stopped by a closed pipe (send it to a file to keep it).
///
/// Spawned with `posix_spawn`, not Foundation's `Process`: on Linux, `Process` hands the
/// child a descriptor of its own whose closing is how it learns of the exit, and a
/// background grandchild inherits it, so `.shell "server &"` waited for the server. Here
/// the child gets standard input, the output pipe and no other descriptor of the session's.
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
        /// The shell's exit status; 128 + the signal's number when a signal ended it, as shells say it.
        let status: Int32
        let output: String
    }

    func run() throws(CommandError) -> Outcome {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CommandError(".shell could not make a pipe: \(String(cString: strerror(errno)))") }
        let (reading, writing) = (ends[0], ends[1])
        let pid: pid_t
        do { pid = try spawn(writingTo: writing) } catch {
            close(reading)
            close(writing)
            throw error
        }
        close(writing)
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
            exit = exited(pid, waiting: false)
            if exit == nil {
                var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 10)
            }
        }
        let status = exit ?? exited(pid, waiting: true) ?? -1
        if ended { close(reading) } else { Self.drainInBackground(reading) }
        return Outcome(status: status, output: String(decoding: output, as: UTF8.self))
    }

    /// Starts `/bin/sh -c command` in `folder`, its standard output and error `writing`.
    private func spawn(writingTo writing: Int32) throws(CommandError) -> pid_t {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writing, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, writing, STDERR_FILENO)
        for descriptor in Self.openDescriptors() where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        // The outer shell enters the folder, then becomes the shell that runs the command as typed.
        let words: [String] = ["/bin/sh", "-c", #"cd -- "$0" && exec /bin/sh -c "$1""#, folder, command]
        let arguments = words.map { word in strdup(word) }
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let failure = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments + [nil], environ)
        guard failure == 0 else { throw CommandError(".shell could not start /bin/sh: \(String(cString: strerror(failure)))") }
        return pid
    }

    /// The descriptors open in this process, as the system lists them.
    private static func openDescriptors() -> [Int32] {
        #if os(Linux)
        let listing = "/proc/self/fd"
        #else
        let listing = "/dev/fd"
        #endif
        return ((try? FileManager.default.contentsOfDirectory(atPath: listing)) ?? []).compactMap { Int32($0) }
    }

    /// The exit status of `pid` once it has exited (nil while it runs, when not `waiting`).
    private func exited(_ pid: pid_t, waiting: Bool) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == -1, errno == EINTR { continue }
            guard result == pid else { return result == 0 ? nil : -1 }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }
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
