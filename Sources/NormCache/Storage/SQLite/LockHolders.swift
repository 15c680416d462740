import Foundation

/// Which other processes hold POSIX locks on a SQLite file or its `-shm` index (those
/// holding write locks when there are any), read
/// from Linux's `/proc/locks`. Probing with `fcntl` instead would mean opening and
/// closing the file, and closing any descriptor drops every lock this process's own
/// connections hold on it.
///
/// ```swift
/// LockHolders.of("/tmp/alice.sqlite")   // [process 4242 (python3)]
/// ```
enum LockHolders {
    struct Holder: Hashable, CustomStringConvertible {
        let pid: Int32
        let name: String?

        var description: String { "process \(pid)" + (name.map { " (\($0))" } ?? "") }
    }

    static func of(_ path: String) -> [Holder] {
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
}
