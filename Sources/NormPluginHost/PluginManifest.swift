import NormCache

/// What a plugin declares about itself in its manifest (normcache_plugin.h documents the
/// JSON): its endpoint's schema, type policies, named operations, services and commands.
///
/// ```swift
/// let manifest = try PluginManifest(json: #"{"schema": "type Query { a: Int }", "operations": {"A": "query A { a }"}}"#)
/// manifest.operations["A"]   // "query A { a }"
/// ```
package struct PluginManifest: Sendable, Equatable {
    /// A service command: `trips.rename ID NAME`, and the operations refetched after it.
    package struct Command: Sendable, Equatable {
        package let name: String
        package let usage: String
        package let help: String
        package let refetch: [String]
        /// The domain of the service it belongs to: the name up to the first dot.
        package var domain: String { String(name.prefix { $0 != "." }) }
    }

    /// A service: its domain (the prefix of its commands) and its name.
    package struct Service: Sendable, Equatable {
        package let domain: String
        package let name: String
    }

    package let schema: String
    /// Key fields per type; an empty list means "never normalize this type".
    package let typePolicies: [(type: String, keyFields: [String])]
    package let operations: [String: String]
    package let services: [Service]
    package let commands: [Command]

    package static func == (a: PluginManifest, b: PluginManifest) -> Bool {
        a.schema == b.schema && a.operations == b.operations && a.services == b.services && a.commands == b.commands
            && a.typePolicies.elementsEqual(b.typePolicies) { $0.type == $1.type && $0.keyFields == $1.keyFields }
    }

    /// Reads a manifest; the error names the member that is wrong.
    package init(json: String) throws(PluginLoadError.Reason) {
        let value: CacheValue
        do { value = try JSON.parse(json) } catch { throw .badManifest("not JSON: \(error)") }
        guard case .object(let object) = value else { throw .badManifest("must be a JSON object, not \(value.kindDescription)") }
        schema = try Self.string(object["schema"], "schema", default: "")
        var policies: [(String, [String])] = []
        for (type, fields) in try Self.object(object["typePolicies"], "typePolicies").members {
            policies.append((type, try Self.strings(fields, "typePolicies.\(type)")))
        }
        typePolicies = policies
        var operations: [String: String] = [:]
        for (name, document) in try Self.object(object["operations"], "operations").members {
            operations[name] = try Self.string(document, "operations.\(name)")
        }
        self.operations = operations
        services = try Self.list(object["services"], "services").enumerated().map { index, item throws(PluginLoadError.Reason) in
            Service(domain: try Self.string(item["domain"], "services[\(index)].domain"),
                    name: try Self.string(item["name"], "services[\(index)].name"))
        }
        commands = try Self.list(object["commands"], "commands").enumerated().map { index, item throws(PluginLoadError.Reason) in
            let name = try Self.string(item["name"], "commands[\(index)].name")
            guard name.contains("."), !name.hasPrefix("."), !name.hasSuffix(".") else {
                throw .badManifest("commands[\(index)].name \"\(name)\" must be DOMAIN.COMMAND, e.g. trips.rename")
            }
            return Command(name: name, usage: try Self.string(item["usage"], "commands[\(index)].usage", default: ""),
                           help: try Self.string(item["help"], "commands[\(index)].help", default: ""),
                           refetch: try Self.strings(item["refetch"] ?? .list([]), "commands[\(index)].refetch"))
        }
    }

    /// The knowledge the cache gets of this plugin's responses: what its schema declares
    /// (``SchemaKnowledge/init(sdl:)``: possible types, `@typePolicy`, `@fieldPolicy`), then
    /// the manifest's `typePolicies`, which win type by type (an empty key-field list: never
    /// normalized).
    func schemaKnowledge() throws(PluginLoadError.Reason) -> SchemaKnowledge {
        var knowledge = SchemaKnowledge()
        if !schema.isEmpty {
            do { knowledge = try SchemaKnowledge(sdl: schema) } catch { throw .badManifest("\(error)") }
        }
        for (type, fields) in typePolicies { knowledge.typePolicies[type] = fields.isEmpty ? .notNormalized : .keyFields(fields) }
        return knowledge
    }

    private static func string(_ value: CacheValue?, _ path: String, default fallback: String? = nil) throws(PluginLoadError.Reason) -> String {
        switch value {
        case .string(let text)?: return text
        case nil where fallback != nil, .null? where fallback != nil: return fallback!
        case nil: throw .badManifest("\(path) is missing")
        case let other?: throw .badManifest("\(path) must be a string, not \(other.kindDescription)")
        }
    }

    private static func object(_ value: CacheValue?, _ path: String) throws(PluginLoadError.Reason) -> CacheObject {
        switch value {
        case .object(let object)?: return object
        case nil, .null?: return CacheObject()
        case let other?: throw .badManifest("\(path) must be an object, not \(other.kindDescription)")
        }
    }

    private static func list(_ value: CacheValue?, _ path: String) throws(PluginLoadError.Reason) -> [CacheValue] {
        switch value {
        case .list(let items)?: return items
        case nil, .null?: return []
        case let other?: throw .badManifest("\(path) must be a list, not \(other.kindDescription)")
        }
    }

    private static func strings(_ value: CacheValue, _ path: String) throws(PluginLoadError.Reason) -> [String] {
        try list(value, path).enumerated().map { index, item throws(PluginLoadError.Reason) in try string(item, "\(path)[\(index)]") }
    }
}
