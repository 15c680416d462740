import Foundation
import NormPluginHost
import Testing

/// Compiles the C plugins under `Tests/Plugins/` into real shared libraries, so the plugin
/// tests load them through dlopen exactly as the host loads any plugin:
///
///     clang -shared -fPIC -std=c11 -Wall -Wextra -Werror -I <repo>/NormPluginABI/include SOURCE -o OUT
///
/// Each source compiles once per test process (tests running in parallel wait for the
/// first compilation), into one temporary directory removed when the process exits.
///
/// ```swift
/// let good = try CPluginBuilder.library("broken/good.c")      // /tmp/…/libgood.so
/// let directory = try CPluginBuilder.scratchDirectory()
/// let copy = try CPluginBuilder.copy(good, into: directory, as: "libnormcache_good.so")
/// ```
enum CPluginBuilder {
    /// The package's root: this file is `<root>/Tests/NormPluginHostTests/CPluginBuilder.swift`.
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Tests/Plugins` in the package.
    static var pluginSources: String { repositoryRoot + "/Tests/Plugins" }

    /// A C plugin that did not compile; the description carries clang's own words.
    struct CompileFailure: Error, CustomStringConvertible {
        let source: String
        let command: [String]
        let status: Int32
        let stderr: String
        var description: String {
            "clang could not compile \(source) (exit status \(status)):\n\(command.joined(separator: " "))\n\(stderr)"
        }
    }

    /// The shared library built from `source` (a path relative to `Tests/Plugins`, e.g.
    /// `broken/good.c`, or an absolute path). Throws a ``CompileFailure`` with clang's
    /// stderr if it does not compile, which fails the calling test with that text.
    static func library(_ source: String) throws -> String {
        try cache.library(for: source.hasPrefix("/") ? source : pluginSources + "/" + source)
    }

    /// True when `Tests/Plugins/<source>` exists (e.g. another engineer's plugin).
    static func sourceExists(_ source: String) -> Bool {
        FileManager.default.fileExists(atPath: pluginSources + "/" + source)
    }

    /// A new empty directory of the test's own, inside the process's temporary directory.
    static func scratchDirectory(_ label: String = #function) throws -> String {
        let safe = String(label.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
        let path = try cache.root() + "/scratch-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Copies `library` into `directory` as `name` (mode 0755) and returns the new path:
    /// another file, so dlopen sees another library with its own static state.
    @discardableResult
    static func copy(_ library: String, into directory: String, as name: String) throws -> String {
        let destination = directory + "/" + name
        try FileManager.default.copyItem(atPath: library, toPath: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination)
        return destination
    }

    /// Writes `text` to `directory/name` (mode 0644) and returns the path.
    @discardableResult
    static func write(_ text: String, into directory: String, as name: String) throws -> String {
        let destination = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: destination))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination)
        return destination
    }

    private static let cache = Cache()

    /// The compiled libraries of this process, by source path.
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var directory: String?
        private var built: [String: Result<String, CompileFailure>] = [:]

        func root() throws -> String {
            try lock.withLock { try rootLocked() }
        }

        private func rootLocked() throws -> String {
            if let directory { return directory }
            let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("normcache-plugin-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            // Not world-writable: the host refuses libraries it could not trust.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            directory = path
            CPluginBuilderCleanup.register(path)
            return path
        }

        /// Compiles under the lock, so a source compiles once however many tests ask at once.
        func library(for source: String) throws -> String {
            try lock.withLock { () throws -> String in
                if let done = built[source] { return try done.get() }
                let root = try rootLocked()
                let stem = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
                let parent = ((source as NSString).deletingLastPathComponent as NSString).lastPathComponent
                let output = root + "/lib\(parent)_\(stem)" + PluginHost.librarySuffix
                let result = Result { () throws(CompileFailure) -> String in try compile(source, to: output) }
                built[source] = result
                return try result.get()
            }
        }

        private func compile(_ source: String, to output: String) throws(CompileFailure) -> String {
            let arguments = ["clang", "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror",
                             "-I", CPluginBuilder.repositoryRoot + "/NormPluginABI/include", source, "-o", output]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = errors
            process.standardInput = FileHandle.nullDevice
            do { try process.run() } catch {
                throw CompileFailure(source: source, command: arguments, status: -1, stderr: "could not start clang: \(error)")
            }
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                throw CompileFailure(source: source, command: arguments, status: process.terminationStatus, stderr: text)
            }
            // Whatever the umask, the host must not see a world-writable file.
            _ = chmod(output, 0o755)
            return output
        }
    }
}

/// Removes the process's build directory when the test process exits.
private enum CPluginBuilderCleanup {
    nonisolated(unsafe) private static var paths: [String] = []

    static func register(_ path: String) {
        // Called under the Cache's lock, once per process.
        paths.append(path)
        if paths.count == 1 { atexit { CPluginBuilderCleanup.removeAll() } }
    }

    private static func removeAll() {
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
