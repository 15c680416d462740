#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `/bin/sh -c COMMAND` as the workbench starts one (``ShellCommand`` for `.shell`, the
/// ``Pager``): the one owner of how it is spawned and how its end is read.
///
/// It gets standard input, output and error (the session's, or the descriptors given), no
/// blocked signal, and none of the session's other open files. Spawned with
/// `posix_spawn`, not Foundation's `Process`: on Linux, `Process` hands the child a
/// descriptor of its own whose closing is how it learns of the exit, so a background
/// command (`server &`) that inherits it holds the wait until it ends.
///
/// ```swift
/// let pid = try Shell.start("less -FRX", input: file).get()
/// Shell.exitStatus(of: pid, waiting: true)   // 0; 127 when the shell found no such command
/// ```
enum Shell {
    /// Starts `command`: `input` its standard input, `output` its standard output and
    /// error, `folder` where it runs (each the session's when nil). The error is an errno.
    static func start(_ command: String, input: Int32? = nil, output: Int32? = nil, folder: String? = nil) -> Result<pid_t, Errno> {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t(), attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil, attributes: posix_spawnattr_t? = nil   // opaque pointers on Darwin
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO) }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, output, STDERR_FILENO)
        }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK)
        #if os(Linux)
        // After the dup2s: a descriptor already closed is no error to glibc.
        for descriptor in openDescriptors() where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        #else
        // Only what the file actions name is inherited (a close of a descriptor already
        // closed would fail the spawn there).
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        for standard in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where standard == STDIN_FILENO ? input == nil : output == nil {
            posix_spawn_file_actions_addinherit_np(&actions, standard)
        }
        #endif
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(flags))
        // In a folder, the outer shell enters it (handed as a word, not as text), then
        // becomes the shell that runs the command as typed.
        let words = folder.map { ["/bin/sh", "-c", #"cd -- "$0" && exec /bin/sh -c "$1""#, $0, command] } ?? ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { (word: String) in strdup(word) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
        defer { (arguments + environment).forEach { free($0) } }
        var child: pid_t = 0
        let failure = posix_spawn(&child, "/bin/sh", &actions, &attributes, arguments, environment)
        return failure == 0 ? .success(child) : .failure(Errno(failure))
    }

    /// The exit status of `pid` once it has exited, 128 + the signal's number when a
    /// signal ended it (as shells say it); nil while it runs, when not `waiting`.
    static func exitStatus(of pid: pid_t, waiting: Bool) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == -1, errno == EINTR { continue }   // Ctrl-C reaches the child, not this wait
            guard result == pid else { return result == 0 ? nil : -1 }
            let signal = status & 0x7f
            return signal == 0 ? (status >> 8) & 0xff : 128 + signal
        }
    }

    /// An errno value, with the system's words for it.
    struct Errno: Error, CustomStringConvertible {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var description: String { String(cString: strerror(code)) }
    }

    #if os(Linux)
    /// The descriptors open in this process, as procfs lists them.
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }
    #endif
}
