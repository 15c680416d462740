/// The manifest of a plugin, as `normcache_plugin.h` documents it: schema, type policies,
/// named operations, services and commands. Making it checks what the host would otherwise
/// find wrong only later: every operation parses, is named once and is valid against the
/// schema; every type policy names a type and its fields; every command belongs to a
/// service's domain and refetches operations of the manifest.
struct Manifest: Encodable {
    let schema: String
    let typePolicies: [String: [String]]
    let operations: [String: String]
    let services: [ServiceEntry]
    let commands: [Command]

    struct ServiceEntry: Encodable {
        let domain: String
        let name: String
    }

    init<P: Plugin>(_ plugin: P, schema: ExecutableSchema<Environment>) throws {
        self.schema = P.schema
        typePolicies = P.typePolicies
        operations = try Self.operations(P.operations, schema: schema.schema)
        services = plugin.services.map { ServiceEntry(domain: $0.domain, name: String(describing: type(of: $0))) }
        commands = plugin.commands
        try checkTypePolicies(schema.schema)
        try checkCommands()
    }

    /// The manifest as JSON, keys sorted so that the text is the same at every load.
    var json: String {
        get throws { try CodableJSON.encode(self, sortingKeys: true) }
    }

    /// The document of each operation by its name.
    private static func operations(_ operations: [NamedOperation], schema: GraphQLSchema) throws -> [String: String] {
        var documents: [String: String] = [:]
        for operation in operations {
            let source = operation.document
            let document: Document
            do { document = try parse(source: Source(body: source)) } catch {
                throw PluginError("the operation \(operation.text.prefix(40))… does not parse: \(error)")
            }
            let definitions = document.definitions.compactMap { $0 as? OperationDefinition }
            guard definitions.count == 1, let name = definitions[0].name?.value else {
                throw PluginError("the operation \(operation.text.prefix(40))… must define one named operation")
            }
            guard documents[name] == nil else { throw PluginError("two operations are named \(name)") }
            let errors = validate(schema: schema, ast: document)
            guard errors.isEmpty else {
                throw PluginError("the operation \(name) is not valid: \(errors.map(\.message).joined(separator: "; "))")
            }
            documents[name] = source
        }
        return documents
    }

    private func checkTypePolicies(_ schema: GraphQLSchema) throws {
        for (typename, keyFields) in typePolicies.sorted(by: { $0.key < $1.key }) {
            let fields: GraphQLFieldMap
            switch schema.getType(name: typename) {
            case let object as GraphQLObjectType: fields = try object.fields()
            case let interface as GraphQLInterfaceType: fields = try interface.fields()
            default: throw PluginError("a type policy for \(typename), which is not an object or interface type of the schema")
            }
            if let missing = keyFields.first(where: { fields[$0] == nil }) {
                throw PluginError("the key field \(missing) of \(typename) is not a field of \(typename)")
            }
        }
    }

    private func checkCommands() throws {
        var names: Set<String> = []
        let domains = services.map(\.domain)
        for command in commands {
            guard names.insert(command.name).inserted else { throw PluginError("two commands are named \(command.name)") }
            guard domains.contains(where: { command.name.hasPrefix("\($0).") }) else {
                throw PluginError("the command \(command.name) does not start with the domain of a service (\(domains.joined(separator: ", ")))")
            }
            if let unknown = command.refetch.first(where: { operations[$0] == nil }) {
                throw PluginError("the command \(command.name) refetches \(unknown), which is not an operation of the manifest")
            }
        }
    }
}
