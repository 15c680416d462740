import Foundation

/// A path matching pattern of Apollo iOS's codegen configuration, relative to the project's
/// directory: `*` matches within one path component, `?` one character, `**` any number of
/// directories, and a leading `!` makes the pattern exclude what it matches. Hidden files and
/// directories (`.build`, `.git`) are matched only by a component that starts with a dot.
struct PathPattern {
    let text: String
    /// `!Generated/**`: what this matches is taken out of what the other patterns matched.
    let isExclusion: Bool
    private let components: [Substring]

    init(_ text: String) {
        self.text = text
        isExclusion = text.hasPrefix("!")
        components = text.dropFirst(isExclusion ? 1 : 0).split(separator: "/")
            .filter { $0 != "." }
    }

    private var isAbsolute: Bool { text.dropFirst(isExclusion ? 1 : 0).hasPrefix("/") }

    /// The files under `directory` that match, as paths relative to it, sorted.
    func files(in directory: String) -> [String] {
        var found: Set<String> = []
        walk(directory: isAbsolute ? "/" : directory, shown: isAbsolute ? "/" : "", from: 0, into: &found)
        return found.sorted()
    }

    /// Whether `path` (relative to the project's directory, as ``files(in:)`` gives it) matches.
    func matches(_ path: String) -> Bool {
        Self.match(components[...], path.split(separator: "/")[...])
    }

    private func walk(directory: String, shown: String, from index: Int, into found: inout Set<String>) {
        guard index < components.count else { return }
        let component = components[index]
        let isLast = index == components.count - 1
        let entries = Self.entries(of: directory)
        if component == "**" {
            walk(directory: directory, shown: shown, from: index + 1, into: &found)
            for (name, isDirectory) in entries where isDirectory && !name.hasPrefix(".") {
                walk(directory: directory + "/" + name, shown: shown + name + "/", from: index, into: &found)
            }
            return
        }
        let candidates = Self.hasWildcard(component)
            ? entries.filter { Self.matchComponent(component, $0.name) && (!$0.name.hasPrefix(".") || component.hasPrefix(".")) }
            : Self.entry(named: String(component), in: directory)
        for (name, isDirectory) in candidates {
            if isLast {
                if !isDirectory { found.insert(shown + name) }
            } else if isDirectory {
                walk(directory: directory + "/" + name, shown: shown + name + "/", from: index + 1, into: &found)
            }
        }
    }

    private static func entries(of directory: String) -> [(name: String, isDirectory: Bool)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.flatMap { entry(named: $0, in: directory) }
    }

    private static func entry(named name: String, in directory: String) -> [(name: String, isDirectory: Bool)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory) else { return [] }
        return [(name, isDirectory.boolValue)]
    }

    private static func hasWildcard(_ component: Substring) -> Bool { component.contains { $0 == "*" || $0 == "?" } }

    /// Whether the path components match the pattern components (`**` spans directories).
    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            return match(pattern.dropFirst(), path) || (!path.isEmpty && match(pattern, path.dropFirst()))
        }
        guard let name = path.first, matchComponent(first, Substring(name)) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// Whether one path component matches one pattern component (`*`, `?`).
    private static func matchComponent<Name: StringProtocol>(_ pattern: Substring, _ name: Name) -> Bool {
        guard let first = pattern.first else { return name.isEmpty }
        switch first {
        case "*": return matchComponent(pattern.dropFirst(), name) || (!name.isEmpty && matchComponent(pattern, name.dropFirst()))
        case "?": return !name.isEmpty && matchComponent(pattern.dropFirst(), name.dropFirst())
        default: return name.first == first && matchComponent(pattern.dropFirst(), name.dropFirst())
        }
    }
}
