import Foundation

/// The process's resident memory, for benchmarks with a memory goal (`open.1m`, `soak`).
///
/// ```swift
/// ResidentMemory.returnFreed()            // freed heap pages go back first
/// let megabytes = ResidentMemory.megabytes()
/// ```
enum ResidentMemory {
    /// glibc's `malloc_trim(0)` (not in Swift's Glibc module): freed heap pages go back to
    /// the system, so that what stays resident is what is still held.
    static func returnFreed() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: Trim.self)(0)
    }

    /// The process's resident memory now, in MB (VmRSS of /proc/self/status).
    static func megabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kB = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kB / 1024
    }
}
