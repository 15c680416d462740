import Foundation

/// Puts generated files into an output folder so that it is never half-written and an
/// unchanged file is never touched: files whose bytes differ are written into a temporary
/// folder beside the output first, then moved into place; files codegen wrote before and
/// no longer writes (marked ``CodeGenerator/generatedMarker``) are removed; a team-owned
/// file (a custom scalar) is written only when it does not exist.
///
/// ```swift
/// let report = try GeneratedOutput(folder: "App/TripsAPI").write(files)
/// report.written    // ["Operations/Queries/TripDetailQuery.graphql.swift"]
/// report.unchanged  // 9
/// ```
package struct GeneratedOutput {
    package let folder: String

    package init(folder: String) { self.folder = folder }

    /// What one run changed.
    package struct Report: Equatable, Sendable {
        package var written: [String] = []
        package var removed: [String] = []
        package var unchanged = 0

        package init(written: [String] = [], removed: [String] = [], unchanged: Int = 0) {
            self.written = written
            self.removed = removed
            self.unchanged = unchanged
        }
    }

    /// Why the output could not be written: the path and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `files`, then removes the files codegen wrote before and no longer writes,
    /// looking for them only under `cleaning` (folders relative to the output folder; ""
    /// is all of it).
    package func write(_ files: [GeneratedFile], cleaning folders: [String] = [""]) throws(Failure) -> Report {
        let manager = FileManager.default
        var report = Report()
        do {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(path: folder, reason: Self.reason(creating: folder) ?? Self.reason(error))
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(path: folder, reason: "not a directory")
        }
        let changed = files.filter { file in
            let existing = manager.contents(atPath: path(file.path))
            if file.isTeamOwned { return existing == nil }
            return existing != Data(file.contents.utf8)
        }
        report.unchanged = files.count - changed.count

        // Every changed file is written beside the output first: a failure leaves the output as it was.
        let staging = (folder as NSString).deletingLastPathComponent + "/.\((folder as NSString).lastPathComponent).codegen-\(getpid())"
        defer { try? manager.removeItem(atPath: staging) }
        for file in changed {
            let staged = staging + "/" + file.path
            do {
                try manager.createDirectory(atPath: (staged as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: staged))
            } catch {
                throw Failure(path: staging, reason: Self.reason(error))
            }
        }
        for file in changed {
            let target = path(file.path)
            do {
                try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if rename(staging + "/" + file.path, target) != 0 { throw Failure(path: target, reason: String(cString: strerror(errno))) }
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(path: target, reason: Self.reason(error))
            }
            report.written.append(file.path)
        }

        let kept = Set(files.map(\.path))
        for stale in Set(folders.flatMap(generatedFiles(under:))).sorted() where !kept.contains(stale) {
            do { try manager.removeItem(atPath: path(stale)) } catch { throw Failure(path: path(stale), reason: Self.reason(error)) }
            report.removed.append(stale)
        }
        return report
    }

    private func path(_ relative: String) -> String { folder + "/" + relative }

    /// The files under `subfolder` of the folder that codegen wrote: those whose first line
    /// is its marker. Hidden folders (`.build`, `.git`) are not looked into: the folder may
    /// be an app's own, when the configuration says where the files go.
    private func generatedFiles(under subfolder: String) -> [String] {
        let root = subfolder.isEmpty ? folder : path(subfolder)
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let below = enumerator.nextObject() as? String {
            let relative = subfolder.isEmpty ? below : subfolder + "/" + below
            if (relative as NSString).lastPathComponent.hasPrefix(".") { enumerator.skipDescendants(); continue }
            guard relative.hasSuffix(".swift"), let handle = FileHandle(forReadingAtPath: path(relative)) else { continue }
            let start = handle.readData(ofLength: CodeGenerator.generatedMarker.utf8.count)
            try? handle.close()
            if start == Data(CodeGenerator.generatedMarker.utf8) { found.append(relative) }
        }
        return found.sorted()
    }

    /// Why a folder cannot be made at `path`: its nearest existing ancestor is a file, or
    /// cannot be written.
    private static func reason(creating path: String) -> String? {
        var ancestor = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        while !ancestor.isEmpty, ancestor != "/", !FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory) {
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory), !isDirectory.boolValue {
            return "\(ancestor) is a file, not a folder"
        }
        return access(ancestor.isEmpty ? "." : ancestor, W_OK) == 0 ? nil : "\(ancestor) cannot be written (\(String(cString: strerror(errno))))"
    }

    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
