import Foundation
import NormCache

/// Which files make a project, and their text. With Apollo iOS's `apollo-codegen-config.json`
/// in the directory, its `input.schemaSearchPaths` and `input.operationSearchPaths` say;
/// without it, every `*.graphqls` and `schema.json`, and every `*.graphql`, under the directory.
struct ProjectFiles {
    /// The configuration file Apollo iOS's codegen CLI reads.
    static let configurationName = "apollo-codegen-config.json"

    /// Schema files (SDL, or a `.json` introspection result), relative paths, sorted.
    var schema: [String] = []
    /// Operation files, relative paths, sorted.
    var operations: [String] = []
    /// The configuration's `schemaNamespace` (or the 1.0 betas' `schemaName`), when it has one.
    var schemaNamespace: String?
    /// The configuration's `output` and `options`, as codegen uses them (Apollo iOS's
    /// defaults without a configuration).
    var codegen = CodegenConfiguration()
    /// Each file's text, by relative path.
    var texts: [String: String] = [:]
    /// Whether the directory has ``configurationName`` (else the default patterns chose the files).
    private(set) var hasConfiguration = false

    /// Finds and reads the files of the project in `directory`; every problem is reported
    /// at once (a missing directory, a bad configuration, patterns that match nothing,
    /// unreadable files).
    init(directory: String) throws(ProjectError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProjectError([.init(file: directory, message: "no such directory")])
        }
        var problems: [ProjectError.Problem] = []
        let configurationPath = directory + "/" + Self.configurationName
        if FileManager.default.fileExists(atPath: configurationPath) {
            hasConfiguration = true
            let json = Self.read(configurationPath, shown: Self.configurationName, problems: &problems).flatMap { Self.parse($0, problems: &problems) }
            if let json {
                var reader = ConfigurationReader()
                codegen = CodegenConfiguration(json, reader: &reader)
                problems += reader.problems
            }
            if let configuration = json.flatMap({ Self.searchPaths(inConfiguration: $0, problems: &problems) }) {
                schemaNamespace = configuration.namespace
                schema = Self.files(matching: configuration.schema, in: directory, key: "schemaSearchPaths", problems: &problems)
                operations = Self.files(matching: configuration.operations, in: directory, key: "operationSearchPaths", problems: &problems)
            }
        } else {
            schema = Self.files(matching: ["**/*.graphqls", "**/schema.json"], in: directory, key: nil, problems: &problems)
            operations = Self.files(matching: ["**/*.graphql"], in: directory, key: nil, problems: &problems)
        }
        for file in schema + operations {
            texts[file] = Self.read(file.hasPrefix("/") ? file : directory + "/" + file, shown: file, problems: &problems)
        }
        if !problems.isEmpty { throw ProjectError(problems) }
    }

    private static func read(_ path: String, shown: String, problems: inout [ProjectError.Problem]) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else {
            problems.append(.init(file: shown, message: "cannot be read"))
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            problems.append(.init(file: shown, message: "is not UTF-8 text"))
            return nil
        }
        return text
    }

    /// `input.schemaSearchPaths` and `input.operationSearchPaths` of the configuration (both
    /// required and non-empty, as Apollo iOS's codegen requires them), and its `schemaNamespace`.
    private static func searchPaths(inConfiguration configuration: CacheValue,
                                    problems: inout [ProjectError.Problem]) -> (schema: [String], operations: [String], namespace: String?)? {
        func patterns(_ key: String) -> [String]? {
            guard case .list(let values)? = configuration["input"]?[key] else {
                problems.append(.init(file: configurationName, message: "input.\(key) is missing: it names the files to read"))
                return nil
            }
            let patterns = values.compactMap { value -> String? in if case .string(let text) = value { text } else { nil } }
            guard patterns.count == values.count, patterns.contains(where: { !$0.hasPrefix("!") }) else {
                problems.append(.init(file: configurationName, message: "input.\(key) names no files: it needs path patterns (strings) such as \"**/*.graphql\""))
                return nil
            }
            return patterns
        }
        let schema = patterns("schemaSearchPaths"), operations = patterns("operationSearchPaths")
        guard let schema, let operations else { return nil }
        // `schemaName` is the key of Apollo iOS 1.0's betas, before it became `schemaNamespace`.
        var namespace: String?
        if case .string(let name)? = configuration["schemaNamespace"] ?? configuration["schemaName"] { namespace = name }
        return (schema, operations, namespace)
    }

    private static func parse(_ text: String, problems: inout [ProjectError.Problem]) -> CacheValue? {
        do { return try JSON.parse(text) } catch {
            problems.append(.init(file: configurationName, line: error.line, column: error.column, message: "not JSON: \(error.message)"))
            return nil
        }
    }

    /// The files the patterns match (less those an exclusion matches); a pattern that matches
    /// nothing is a problem, named by the configuration key it is under (`nil`: the defaults).
    private static func files(matching patterns: [String], in directory: String, key: String?,
                              problems: inout [ProjectError.Problem]) -> [String] {
        let patterns = patterns.map(PathPattern.init)
        var files: Set<String> = []
        for pattern in patterns where !pattern.isExclusion {
            let matched = pattern.files(in: directory)
            if matched.isEmpty, let key {
                problems.append(.init(file: configurationName, message: "input.\(key): \"\(pattern.text)\" matches no file"))
            }
            files.formUnion(matched)
        }
        for exclusion in patterns where exclusion.isExclusion { files = files.filter { !exclusion.matches($0) } }
        if files.isEmpty, key == nil {
            let kind = patterns.map(\.text).joined(separator: " or ")
            problems.append(.init(file: directory, message: "no \(kind) file in this directory (and no \(configurationName))"))
        }
        return files.sorted()
    }
}
