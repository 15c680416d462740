import Foundation

/// Which other processes hold a SQLite file or its `-shm` index, to name them in a message.
/// Each platform tells what it can: Linux who holds POSIX locks on them (`/proc/locks`;
/// those holding write locks when there are any), macOS who has them open (libproc; every
/// open WAL connection keeps the `-shm` open), iOS nothing (an app sees no other process).
/// Probing with `fcntl` instead would mean opening and closing the file, and closing any
/// descriptor drops every lock this process's own connections hold on it.
///
/// ```swift
/// LockHolders.of("/tmp/alice.sqlite")      // [process 4242 (python3)]; nil on iOS
/// LockHolders.naming("/tmp/alice.sqlite")  // "process 4242 (python3)" on Linux
/// ```
enum LockHolders {
    struct Holder: Hashable, CustomStringConvertible {
        let pid: Int32
        let name: String?

        var description: String { "process \(pid)" + (name.map { " (\($0))" } ?? "") }
    }

    /// Who is in the way of this connection's lock, for a message: the processes Linux
    /// names; on macOS, which knows only who has the file open, "another connection (the
    /// file is open in …)"; "another connection" when no process can be named.
    static func naming(_ path: String) -> String {
        guard let holders = of(path), !holders.isEmpty else { return "another connection" }
        let named = holders.map(\.description).joined(separator: ", ")
        #if os(Linux)
        return named
        #else
        return "another connection (the file is open in \(named))"
        #endif
    }

    #if os(Linux)
    /// The other processes holding locks on the file or its `-shm`: the writers if any hold
    /// a write lock, else the readers.
    static func of(_ path: String) -> [Holder]? {
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return [] }
        let files = [path, path + "-shm"].compactMap(Self.identity)
        guard !files.isEmpty else { return [] }
        let me = getpid()
        var writers: [Holder] = [], readers: [Holder] = []
        for line in table.split(separator: "\n") {
            // "1: POSIX  ADVISORY  WRITE 4242 08:01:1234 1073741824 1073741824"; waiters carry "->".
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[1] != "->", let pid = Int32(fields[4]), pid > 0, pid != me else { continue }
            guard files.contains(String(fields[5])) else { continue }
            let holder = Holder(pid: pid, name: processName(pid))
            if fields[3] == "WRITE" {
                if !writers.contains(holder) { writers.append(holder) }
            } else if !readers.contains(holder) {
                readers.append(holder)
            }
        }
        // Every open WAL connection holds read locks; whoever holds a write lock is the one
        // in the way. Without one (a rollback-journal file), readers block a commit.
        return writers.isEmpty ? readers : writers
    }

    /// `MAJOR:MINOR:INODE` as /proc/locks prints it (hexadecimal device numbers).
    private static func identity(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~0xFFF)
        let minor = (device & 0xFF) | ((device >> 12) & ~0xFF)
        return String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
    }

    private static func processName(_ pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #elseif os(macOS)
    /// The other processes that have the file or its `-shm` open; which of them holds a
    /// lock, macOS does not say. Empty in a sandbox that hides other processes.
    static func of(_ path: String) -> [Holder]? {
        let me = getpid()
        var holders: [Holder] = []
        for pid in openers(of: path) + openers(of: path + "-shm") where pid != me && !holders.contains(where: { $0.pid == pid }) {
            holders.append(Holder(pid: pid, name: processName(pid)))
        }
        return holders
    }

    private static func openers(of file: String) -> [pid_t] {
        let size = proc_listpidspath(UInt32(PROC_ALL_PIDS), 0, file, 0, nil, 0)
        guard size > 0 else { return [] }
        // Room for a few processes more: the list can grow between the two calls.
        var pids = [pid_t](repeating: 0, count: Int(size) / MemoryLayout<pid_t>.stride + 16)
        let filled = pids.withUnsafeMutableBytes { proc_listpidspath(UInt32(PROC_ALL_PIDS), 0, file, 0, $0.baseAddress, Int32($0.count)) }
        return filled > 0 ? pids.prefix(Int(filled) / MemoryLayout<pid_t>.stride).filter { $0 > 0 } : []
    }

    private static func processName(_ pid: pid_t) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = proc_name(pid, &buffer, UInt32(buffer.count))
        return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : nil
    }
    #else
    /// Nothing: this platform shows an app no other process.
    static func of(_ path: String) -> [Holder]? { nil }
    #endif
}
