import Foundation

/// The process's resident memory, for benchmarks with a memory goal (`open.1m`, `soak`).
///
/// ```swift
/// ResidentMemory.returnFreed()            // freed heap pages go back first
/// let megabytes = ResidentMemory.megabytes()
/// ```
enum ResidentMemory {
    /// Freed heap pages go back to the system, so that what stays resident is what is still
    /// held: glibc's `malloc_trim(0)` on Linux (looked up, as Swift's Glibc module lacks
    /// it), the malloc zones' pressure relief on Darwin.
    static func returnFreed() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(trim, to: Trim.self)(0)
        #else
        _ = malloc_zone_pressure_relief(nil, 0)
        #endif
    }

    /// The process's resident memory now, in MB: VmRSS of /proc/self/status on Linux, the
    /// task's resident size (mach `task_info`) on Darwin; NaN when it cannot be read.
    static func megabytes() -> Double {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kB = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kB / 1024
        #else
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let status = withUnsafeMutablePointer(to: &info) {
            $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        guard status == KERN_SUCCESS else { return .nan }
        return Double(info.resident_size) / (1024 * 1024)
        #endif
    }
}
