import GraphQL
import NormAPI

/// Which object types satisfy a fragment's type condition (`... on Character`): the
/// implementations of interfaces and the members of unions. Learned from a schema (SDL
/// or an introspection result) when one is known, and otherwise from responses. A schema
/// also gives the input side that variables are checked against (``VariableCoercion``):
/// the input objects with their fields (so that a `Float` inside an input object variable
/// is keyed `30.0` even when the JSON says `30`, and a missing required field or an
/// unknown one is refused) and the values of each enum.
///
/// ```swift
/// var types = try PossibleTypes(sdl: "interface Character { id: ID! } type Human implements Character { id: ID! }")
/// types.matches("Human", condition: "Character")   // true
/// types.learn("Droid", satisfies: "Character")     // seen in a response
/// ```
public struct PossibleTypes: Sendable, Equatable {
    private var supertypes: [String: Set<String>] = [:]
    /// The root operation type names (`Query`, `Mutation`, `Subscription` unless the schema renames them).
    public var rootTypes: [CompiledOperation.Kind: String] { [.query: roots.query, .mutation: roots.mutation, .subscription: roots.subscription] }
    /// The name of the root type of operations of `kind`: what every read asks, answered without hashing.
    func rootType(of kind: CompiledOperation.Kind) -> String { roots[kind] }
    private var roots = RootTypeNames()
    /// True once a schema was given: then it decides for the types it defines, and
    /// responses teach only about types it does not define.
    public private(set) var fromSchema = false
    /// The object types the schema defines: for these its word is final.
    private var objectTypes: Set<String> = []
    /// The types responses named as an object's `__typename`: object types, which no other
    /// type satisfies.
    private var typenamesSeen: Set<String> = []
    /// The input objects by name: `SearchFilter` → its fields (`minLength: Float`), `@oneOf` or not.
    private var inputObjects: [String: InputObjectType] = [:]
    /// The type of each object's and interface's fields: `Trip` → `seats` → `Int!`.
    private var outputFields: [String: [String: TypeReference]] = [:]
    /// The argument names of each object's and interface's fields: `Query` → `trip` → `["id"]`.
    private var fieldArguments: [String: [String: [String]]] = [:]
    /// The values of each enum type, in the schema's order: `Episode` → `NEWHOPE`, `EMPIRE`, `JEDI`.
    /// Empty when an introspection result left them out (an enum always has one).
    private var enumValues: [String: [String]] = [:]
    /// The custom scalars (`scalar Json`): a response value of one may be any JSON value.
    private var customScalars: Set<String> = []
    private static let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

    public init() {}

    /// The possible types declared in SDL: `implements` clauses and union members.
    public init(sdl: String) throws(OperationError) {
        self.init(schema: try Self.document(sdl: sdl).definitions)
    }

    /// SDL parsed, or what is wrong with it and where (`schema: …`).
    static func document(sdl: String) throws(OperationError) -> Document {
        do throws(OperationError) { try GraphQLParserGuard.check(sdl) } catch {
            throw OperationError("schema: " + error.message, line: error.line, column: error.column)
        }
        do { return try parse(source: sdl) } catch let error as GraphQLError {
            throw OperationError("schema: " + error.message, line: error.locations.first?.line, column: error.locations.first?.column)
        } catch { throw OperationError("schema: \(error)") }
    }

    /// The possible types of SDL already parsed (as ``init(sdl:)`` reads its text).
    public init(schema definitions: [any Definition]) {
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition:
                define(object)
            case let extensionDefinition as TypeExtensionDefinition:
                define(extensionDefinition.definition)
            case let interface as InterfaceTypeDefinition:
                define(interface.fields, of: interface.name.value)
            case let interface as InterfaceExtensionDefinition:
                define(interface.definition.fields, of: interface.definition.name.value)
            case let enumeration as EnumTypeDefinition:
                enumValues[enumeration.name.value, default: []] += enumeration.values.map(\.name.value)
            case let enumeration as EnumExtensionDefinition:
                enumValues[enumeration.definition.name.value, default: []] += enumeration.definition.values.map(\.name.value)
            case let scalar as ScalarTypeDefinition where !Self.builtInScalars.contains(scalar.name.value):
                customScalars.insert(scalar.name.value)
            case let union as UnionTypeDefinition:
                for member in union.types { learn(member.name.value, satisfies: union.name.value) }
            case let input as InputObjectTypeDefinition:
                define(input)
            case let input as InputObjectExtensionDefinition:
                define(input.definition)
            case let schema as SchemaDefinition:
                for operation in schema.operationTypes {
                    roots[CompiledOperation.Kind(operation.operation)] = operation.type.name.value
                }
            default: break
            }
        }
        fromSchema = true
    }

    /// Takes in an object type's definition: its fields' types and the interfaces it implements.
    private mutating func define(_ object: ObjectTypeDefinition) {
        objectTypes.insert(object.name.value)
        define(object.fields, of: object.name.value)
        for interface in object.interfaces { learn(object.name.value, satisfies: interface.name.value) }
    }

    /// Takes in an input object's definition or extension: its fields and `@oneOf`.
    private mutating func define(_ input: InputObjectTypeDefinition) {
        var type = inputObjects[input.name.value] ?? InputObjectType()
        type.fields += input.fields.map { InputObjectType.Field(name: $0.name.value, type: TypeReference($0.type), hasDefault: $0.defaultValue != nil) }
        if input.directives.contains(where: { $0.name.value == "oneOf" }) { type.isOneOf = true }
        inputObjects[input.name.value] = type
    }

    /// Takes in the fields of an object or interface type: their types and argument names.
    private mutating func define(_ fields: [FieldDefinition], of type: String) {
        for field in fields {
            outputFields[type, default: [:]][field.name.value] = TypeReference(field.type)
            fieldArguments[type, default: [:]][field.name.value] = field.arguments.map(\.name.value)
        }
    }

    /// The possible types in an introspection result (`{"__schema": {"types": [...]}}`,
    /// with or without the `data` wrapper).
    public init(introspection: CacheValue) throws(OperationError) {
        let schema = introspection["data"]?["__schema"] ?? introspection["__schema"]
        guard case .list(let types)? = schema?["types"] else {
            throw OperationError("introspection result has no __schema.types list")
        }
        for type in types {
            guard case .string(let name)? = type["name"] else { continue }
            if type["kind"] == .string("OBJECT") { objectTypes.insert(name) }
            if type["kind"] == .string("ENUM") {
                var values: [String] = []   // none when the introspection query did not ask for them
                if case .list(let given)? = type["enumValues"] {
                    values = given.compactMap { if case .string(let value)? = $0["name"] { value } else { nil } }
                }
                enumValues[name] = values
            }
            if type["kind"] == .string("SCALAR"), !Self.builtInScalars.contains(name) { customScalars.insert(name) }
            func fieldTypes(_ member: String) -> [String: TypeReference] {
                guard case .list(let fields)? = type[member] else { return [:] }
                var types: [String: TypeReference] = [:]
                for field in fields {
                    if case .string(let fieldName)? = field["name"], let fieldType = TypeReference(introspected: field["type"]) { types[fieldName] = fieldType }
                }
                return types
            }
            if case .list(let fields)? = type["inputFields"] {
                inputObjects[name] = InputObjectType(fields: fields.compactMap { field in
                    guard case .string(let fieldName)? = field["name"], let fieldType = TypeReference(introspected: field["type"]) else { return nil }
                    let hasDefault = field["defaultValue"].map { $0 != .null } ?? false
                    return InputObjectType.Field(name: fieldName, type: fieldType, hasDefault: hasDefault)
                }, isOneOf: type["isOneOf"] == .bool(true))
            }
            if case .list(let fields)? = type["fields"] {
                outputFields[name] = fieldTypes("fields")
                for field in fields {
                    guard case .string(let fieldName)? = field["name"], case .list(let arguments)? = field["args"] else { continue }
                    fieldArguments[name, default: [:]][fieldName] = arguments.compactMap { if case .string(let name)? = $0["name"] { name } else { nil } }
                }
            }
            guard case .string(let name)? = type["name"], case .list(let possible)? = type["possibleTypes"] else { continue }
            for member in possible {
                if case .string(let member)? = member["name"] { learn(member, satisfies: name) }
            }
        }
        for (kind, field) in [(CompiledOperation.Kind.query, "queryType"), (.mutation, "mutationType"), (.subscription, "subscriptionType")] {
            if case .string(let name)? = schema?[field]?["name"] { roots[kind] = name }
        }
        fromSchema = true
    }

    /// The possible types a generated schema's metadata declares (`normcache codegen`'s
    /// `SchemaMetadata`): its object types with the interfaces they implement, its unions'
    /// members, its root types, and the types of the fields that have a field policy or are
    /// paginated or embedded. It decides for the types it defines, as a schema does; what it
    /// does not say (input objects, the other fields' types) is left unchecked.
    init(generated schema: any SchemaMetadata.Type) {
        for object in schema.objectTypes {
            objectTypes.insert(object.typename)
            for interface in object.implementedInterfaces { learn(object.typename, satisfies: interface.name) }
        }
        for union in schema.unions {
            for member in union.possibleTypes { learn(member.typename, satisfies: union.name) }
        }
        let declared = schema.rootTypes
        for (kind, name) in [(CompiledOperation.Kind.query, declared.query), (.mutation, declared.mutation), (.subscription, declared.subscription)] {
            if let name { roots[kind] = name }
        }
        let fields = schema.fieldPolicies.map { ($0.type, $0.field, $0.returnType) } + schema.pagination.map { ($0.type, $0.field, $0.returnType) }
        for (type, field, returnType) in fields {
            if let parsed = TypeReference(parsing: returnType[...]) { outputFields[type, default: [:]][field] = parsed }
        }
        fromSchema = true
    }

    /// Records that objects of type `typename` satisfy `condition`.
    public mutating func learn(_ typename: String, satisfies condition: String) {
        supertypes[typename, default: []].insert(condition)
    }

    /// Records that a response named `typename` as an object's `__typename`: an object
    /// type, so no object of another type satisfies it.
    mutating func learn(typenameSeen typename: String) {
        if !typenamesSeen.contains(typename) { typenamesSeen.insert(typename) }
    }

    /// Whether an object of type `typename` satisfies the type condition `condition`.
    public func matches(_ typename: String, condition: String) -> Bool {
        typename == condition || supertypes[typename]?.contains(condition) == true
    }

    /// The input object type named `name`, if the schema defines it.
    func inputObject(_ name: String) -> InputObjectType? { inputObjects[name] }

    /// The values of the enum type named `name`, in the schema's order, if the schema defines
    /// it; empty when it did not say them (an introspection result without `enumValues`).
    func enumValues(of name: String) -> [String]? { enumValues[name] }

    /// The types of the fields of the object or interface type `type`, if the schema defines it.
    ///
    /// ```swift
    /// let types = try PossibleTypes(sdl: "type Query { trip(id: ID!): Trip } type Trip { id: ID! }")
    /// types.outputFields(of: "Query")?["trip"]   // .named("Trip")
    /// types.outputFields(of: "Nothing")          // nil
    /// ```
    public func outputFields(of type: String) -> [String: TypeReference]? { outputFields[type] }

    /// The argument names of `field` of the object or interface type `type`, as the schema
    /// declares them; `nil` when it does not know the field.
    ///
    /// ```swift
    /// let types = try PossibleTypes(sdl: "type Query { trips(first: Int, after: String): [ID!]! }")
    /// types.arguments(of: "trips", on: "Query")   // ["first", "after"]
    /// ```
    public func arguments(of field: String, on type: String) -> [String]? { fieldArguments[type]?[field] }

    /// The types known to satisfy `condition` (an interface's implementations, a union's
    /// members), sorted; empty for an object type.
    ///
    /// ```swift
    /// let types = try PossibleTypes(sdl: "union Endpoint = Station | Airport")
    /// types.types(satisfying: "Endpoint")   // ["Airport", "Station"]
    /// ```
    public func types(satisfying condition: String) -> [String] {
        supertypes.filter { $0.value.contains(condition) }.map(\.key).sorted()
    }

    /// The interfaces and unions `typename` is known to belong to, sorted.
    func supertypes(of typename: String) -> [String] { supertypes[typename]?.sorted() ?? [] }

    /// Whether the schema declares `name` an enum.
    func isEnum(_ name: String) -> Bool { enumValues[name] != nil }

    /// Whether the schema declares `name` a custom scalar (`scalar Json`).
    func isCustomScalar(_ name: String) -> Bool { customScalars.contains(name) }

    /// Whether an object of type `typename` satisfies `condition`: `true` or `false` when
    /// this knows (the schema defines the type, or a response showed it), `nil` when not.
    /// A condition that names an object type (the schema's, or one a response named as a
    /// `__typename`) is satisfied by that type alone. An object without a `__typename`
    /// (`typename` empty) is left undecided.
    ///
    /// ```swift
    /// let types = try PossibleTypes(sdl: "interface Character { id: ID! } type Droid implements Character { id: ID! }")
    /// types.satisfies("Droid", condition: "Character")     // true
    /// types.satisfies("Wookiee", condition: "Droid")       // false: Droid is an object type
    /// types.satisfies("Wookiee", condition: "Character")   // nil: the schema does not know a Wookiee
    /// ```
    public func satisfies(_ typename: String, condition: String) -> Bool? {
        if matches(typename, condition: condition) { return true }
        if definesObjectType(typename) { return false }
        return !typename.isEmpty && isObjectType(condition) ? false : nil
    }

    /// Whether `name` is known to be an object type: the schema defines it so, or a
    /// response named it as a `__typename`.
    func isObjectType(_ name: String) -> Bool { objectTypes.contains(name) || typenamesSeen.contains(name) }

    /// Whether the schema defines `name` as an object type: then its word on `name` is final.
    func definesObjectType(_ name: String) -> Bool { objectTypes.contains(name) }

}

/// The names of a schema's three root operation types, one stored field each.
private struct RootTypeNames: Sendable, Equatable {
    var query = "Query", mutation = "Mutation", subscription = "Subscription"

    subscript(kind: CompiledOperation.Kind) -> String {
        get {
            switch kind {
            case .query: query
            case .mutation: mutation
            case .subscription: subscription
            }
        }
        set {
            switch kind {
            case .query: query = newValue
            case .mutation: mutation = newValue
            case .subscription: subscription = newValue
            }
        }
    }
}
