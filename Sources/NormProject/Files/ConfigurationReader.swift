import NormCache

/// Reads values out of `apollo-codegen-config.json` by key path, in the shapes Apollo iOS's
/// codegen decodes them: a value of the wrong kind, a string not among those allowed, a key
/// Apollo iOS does not know, each a problem naming its key path.
///
/// ```swift
/// var reader = ConfigurationReader()
/// reader.choice(.string("snake"), at: "options.conversionStrategies.enumCases", among: ["camelCase", "none"])
/// reader.problems   // apollo-codegen-config.json: options.conversionStrategies.enumCases: "snake" is not one of camelCase, none
/// ```
struct ConfigurationReader {
    private(set) var problems: [ProjectError.Problem] = []

    mutating func problem(at path: String, _ message: String) {
        problems.append(.init(file: ProjectFiles.configurationName, message: path.isEmpty ? message : "\(path): \(message)"))
    }

    /// The object at `path` (nil when absent or not an object, the latter a problem); a key
    /// outside `keys` is a problem (nil: any key is taken). The top level's path is "".
    mutating func object(_ value: CacheValue?, at path: String, keys: Set<String>?) -> CacheObject? {
        guard let value, value != .null else { return nil }
        guard case .object(let object) = value else {
            problem(at: path, "expected an object, found \(value.kind)")
            return nil
        }
        for key in object.keys where keys.map({ !$0.contains(key) }) ?? false {
            problem(at: path.isEmpty ? key : path + "." + key, "Apollo iOS's codegen has no such key (known: \((keys ?? []).sorted().joined(separator: ", ")))")
        }
        return object
    }

    mutating func string(_ value: CacheValue?, at path: String) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?:
            problem(at: path, "expected a string, found \(value.kind)")
            return nil
        }
    }

    mutating func bool(_ value: CacheValue?, at path: String) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let value?:
            problem(at: path, "expected true or false, found \(value.kind)")
            return nil
        }
    }

    /// A list of strings at `path`.
    mutating func strings(_ value: CacheValue?, at path: String) -> [String]? {
        guard let value, value != .null else { return nil }
        guard case .list(let items) = value else {
            problem(at: path, "expected a list of strings, found \(value.kind)")
            return nil
        }
        let texts = items.compactMap { item -> String? in if case .string(let text) = item { text } else { nil } }
        guard texts.count == items.count else {
            problem(at: path, "expected a list of strings")
            return nil
        }
        return texts
    }

    /// A string that must be one of `choices`.
    mutating func choice(_ value: CacheValue?, at path: String, among choices: [String]) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard choices.contains(text) else {
            problem(at: path, "\"\(text)\" is not one of \(choices.joined(separator: ", "))")
            return nil
        }
        return text
    }

    /// Apollo's encoding of a Swift enum with associated values: an object of exactly one
    /// key, the case, whose value is an object of the case's values (`{"relative": {"subpath": "Generated"}}`).
    mutating func tagged(_ value: CacheValue?, at path: String, among cases: [String: Set<String>]) -> (tag: String, values: CacheObject)? {
        guard let object = object(value, at: path, keys: Set(cases.keys)) else { return nil }
        guard object.count == 1, let tag = object.keys.first, let keys = cases[tag] else {
            if object.count != 1 { problem(at: path, "expected exactly one of \(cases.keys.sorted().joined(separator: ", "))") }
            return nil
        }
        return (tag, self.object(object[tag], at: path + "." + tag, keys: keys) ?? CacheObject())
    }
}

private extension CacheValue {
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string(let text): "the string \"\(text)\""
        case .list: "a list"
        case .object: "an object"
        case .reference: "a reference"
        }
    }
}
