import Foundation

/// What a shared library is on this platform, as the host names, finds and tells apart
/// plugin libraries: an ELF object named `*.so` on Linux, a Mach-O object named `*.dylib`
/// on Darwin.
///
/// ```swift
/// "libnormcache_trips" + PluginHost.librarySuffix   // "libnormcache_trips.so" on Linux
/// ```
extension PluginHost {
    #if os(Linux)
    /// The suffix of a shared library's file name.
    package static let librarySuffix = ".so"
    /// What a message calls the object file dlopen loads.
    static let objectKind = "an ELF object"
    /// The first four bytes of such an object: ELF's magic.
    private static let magics: [[UInt8]] = [[0x7F, 0x45, 0x4C, 0x46]]
    #else
    package static let librarySuffix = ".dylib"
    static let objectKind = "a Mach-O object"
    /// Mach-O's magic numbers, in either byte order: 32-bit, 64-bit, and a universal
    /// ("fat") file of several architectures, with 32- or 64-bit offsets.
    private static let magics: [[UInt8]] = [
        [0xFE, 0xED, 0xFA, 0xCE], [0xCE, 0xFA, 0xED, 0xFE],
        [0xFE, 0xED, 0xFA, 0xCF], [0xCF, 0xFA, 0xED, 0xFE],
        [0xCA, 0xFE, 0xBA, 0xBE], [0xBE, 0xBA, 0xFE, 0xCA],
        [0xCA, 0xFE, 0xBA, 0xBF], [0xBF, 0xBA, 0xFE, 0xCA],
    ]
    #endif

    /// Whether the file begins as this platform's object files do (then dlopen refused
    /// an object for what it needs: a symbol, a library, another architecture; anything
    /// else for not being one), or why it cannot be read.
    static func startsLikeLibrary(_ path: String) -> Result<Bool, PluginLoadError.Reason> {
        guard let file = fopen(path, "rb") else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var magic = [UInt8](repeating: 0, count: 4)
        return .success(fread(&magic, 1, 4, file) == 4 && magics.contains(magic))
    }
}
