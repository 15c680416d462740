import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a program on a new pseudo-terminal, as a person starts it in a terminal window,
/// and times how long it takes to show a given text; the program is killed after.
///
/// The pseudo-terminal's slave side is the program's standard input, output and error,
/// so `isatty` holds and an interactive program shows its prompt. `HOME` is set to a
/// scratch directory (no `~/.normcache_history` or `~/.editrc` is read or written) and
/// `TERM` to `xterm`, as in the terminal test.
///
/// ```swift
/// let launch = TerminalLaunch(executable: "/usr/bin/normcache", home: "/tmp/home")
/// let seconds = launch.secondsUntil("normcache> ")               // spawn → prompt
/// let floor = launch.secondsUntil("0.2.0", arguments: ["--version"])
/// ```
struct TerminalLaunch {
    let executable: String
    let home: String

    /// How long to wait for the text before giving up.
    static let timeoutMilliseconds: Int32 = 10_000

    /// Seconds from spawning the executable with `arguments` to the moment its terminal
    /// output first contains `text`. The process is then killed and reaped (not timed).
    func secondsUntil(_ text: String, arguments: [String] = []) -> Double {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { fatalError("bench: openpty: \(String(cString: strerror(errno)))") }
        defer { close(master) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil   // an opaque pointer on Darwin
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in STDIN_FILENO...STDERR_FILENO { posix_spawn_file_actions_adddup2(&actions, slave, descriptor) }
        posix_spawn_file_actions_addclose(&actions, slave)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["TERM"] = "xterm"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let seconds = Stopwatch.seconds {
            let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            close(slave)
            guard status == 0 else { fatalError("bench: cannot start \(executable): \(String(cString: strerror(status)))") }
            readUntil(text, from: master)
        }
        kill(pid, SIGKILL)
        var exitStatus: Int32 = 0
        waitpid(pid, &exitStatus, 0)
        return seconds
    }

    /// Reads the terminal until its output contains `text`; stops the benchmark if the
    /// program exits or stays silent for ``timeoutMilliseconds`` first.
    private func readUntil(_ text: String, from master: Int32) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: output, as: UTF8.self).contains(text) {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let count = poll(&ready, 1, Self.timeoutMilliseconds) > 0 ? read(master, &buffer, buffer.count) : 0
            guard count > 0 else {
                fatalError("bench: \(executable) never showed \(text.debugDescription); it wrote \(String(decoding: output, as: UTF8.self).debugDescription)")
            }
            output += buffer[0..<count]
        }
    }
}
