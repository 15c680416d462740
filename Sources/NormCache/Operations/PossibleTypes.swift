import GraphQL

/// Which object types satisfy a fragment's type condition (`... on Character`): the
/// implementations of interfaces and the members of unions. Learned from a schema (SDL
/// or an introspection result) when one is known, and otherwise from responses. A schema
/// also gives the types of input object fields, so that a `Float` inside an input object
/// variable is keyed `30.0` even when the JSON says `30`.
///
/// ```swift
/// var types = try PossibleTypes(sdl: "interface Character { id: ID! } type Human implements Character { id: ID! }")
/// types.matches("Human", condition: "Character")   // true
/// types.learn("Droid", satisfies: "Character")     // seen in a response
/// ```
public struct PossibleTypes: Sendable, Equatable {
    private var supertypes: [String: Set<String>] = [:]
    /// The root operation type names (`Query`, `Mutation`, `Subscription` unless the schema renames them).
    public private(set) var rootTypes: [Operation.Kind: String] = [.query: "Query", .mutation: "Mutation", .subscription: "Subscription"]
    /// True once a schema was given: then it decides for the types it defines, and
    /// responses teach only about types it does not define.
    public private(set) var fromSchema = false
    /// The object types the schema defines: for these its word is final.
    private var objectTypes: Set<String> = []
    /// The named type of each input object's fields: `SearchFilter` → `minLength` → `Float`.
    private var inputFields: [String: [String: String]] = [:]

    public init() {}

    /// The possible types declared in SDL: `implements` clauses and union members.
    public init(sdl: String) throws(OperationError) {
        let document: Document
        do { document = try parse(source: sdl) } catch let error as GraphQLError {
            throw OperationError("schema: " + error.message, line: error.locations.first?.line, column: error.locations.first?.column)
        } catch { throw OperationError("schema: \(error)") }
        for definition in document.definitions {
            switch definition {
            case let object as ObjectTypeDefinition:
                objectTypes.insert(object.name.value)
                for interface in object.interfaces { learn(object.name.value, satisfies: interface.name.value) }
            case let extensionDefinition as TypeExtensionDefinition:
                let object = extensionDefinition.definition
                objectTypes.insert(object.name.value)
                for interface in object.interfaces { learn(object.name.value, satisfies: interface.name.value) }
            case let union as UnionTypeDefinition:
                for member in union.types { learn(member.name.value, satisfies: union.name.value) }
            case let input as InputObjectTypeDefinition:
                for field in input.fields { inputFields[input.name.value, default: [:]][field.name.value] = namedTypeName(field.type) }
            case let input as InputObjectExtensionDefinition:
                for field in input.definition.fields {
                    inputFields[input.definition.name.value, default: [:]][field.name.value] = namedTypeName(field.type)
                }
            case let schema as SchemaDefinition:
                for operation in schema.operationTypes {
                    rootTypes[Operation.Kind(operation.operation)] = operation.type.name.value
                }
            default: break
            }
        }
        fromSchema = true
    }

    /// The possible types in an introspection result (`{"__schema": {"types": [...]}}`,
    /// with or without the `data` wrapper).
    public init(introspection: CacheValue) throws(OperationError) {
        let schema = introspection["data"]?["__schema"] ?? introspection["__schema"]
        guard case .list(let types)? = schema?["types"] else {
            throw OperationError("introspection result has no __schema.types list")
        }
        for type in types {
            if case .string(let name)? = type["name"], type["kind"] == .string("OBJECT") { objectTypes.insert(name) }
            if case .string(let name)? = type["name"], case .list(let fields)? = type["inputFields"] {
                for field in fields {
                    // The named type under any NON_NULL / LIST wrappers.
                    var fieldType = field["type"]
                    while case .object? = fieldType?["ofType"] { fieldType = fieldType?["ofType"] }
                    if case .string(let fieldName)? = field["name"], case .string(let typeName)? = fieldType?["name"] {
                        inputFields[name, default: [:]][fieldName] = typeName
                    }
                }
            }
            guard case .string(let name)? = type["name"], case .list(let possible)? = type["possibleTypes"] else { continue }
            for member in possible {
                if case .string(let member)? = member["name"] { learn(member, satisfies: name) }
            }
        }
        for (kind, field) in [(Operation.Kind.query, "queryType"), (.mutation, "mutationType"), (.subscription, "subscriptionType")] {
            if case .string(let name)? = schema?[field]?["name"] { rootTypes[kind] = name }
        }
        fromSchema = true
    }

    /// Records that objects of type `typename` satisfy `condition`.
    public mutating func learn(_ typename: String, satisfies condition: String) {
        supertypes[typename, default: []].insert(condition)
    }

    /// Whether an object of type `typename` satisfies the type condition `condition`.
    public func matches(_ typename: String, condition: String) -> Bool {
        typename == condition || supertypes[typename]?.contains(condition) == true
    }

    /// The named type of `field` of the input object type `type`, if the schema says.
    func inputFieldType(_ type: String, _ field: String) -> String? { inputFields[type]?[field] }

    /// Whether an object of type `typename` satisfies `condition`: `true` or `false` when
    /// this knows (the schema defines the type, or a response showed it), `nil` when not.
    public func satisfies(_ typename: String, condition: String) -> Bool? {
        if matches(typename, condition: condition) { return true }
        return fromSchema && objectTypes.contains(typename) ? false : nil
    }
}
