import NormProject
import GraphQL

/// What codegen asks of a project's schema: a type by name, its kind, the fields of an
/// object or interface, which object types an abstract type may be, and which types a
/// type's selections may be conditioned on (remembered, as GraphQLSwift rebuilds field
/// maps on each call).
final class SchemaTypes {
    let schema: GraphQLSchema
    private var fieldMaps: [String: GraphQLFieldMap] = [:]
    private var possible: [String: Set<String>] = [:]
    private var matching: [String: Set<String>] = [:]

    init(_ schema: GraphQLSchema) { self.schema = schema }

    func type(named name: String) -> GraphQLNamedType? { schema.getType(name: name) }

    /// The type of field `name` of the object or interface `parent`; `__typename` is `String!`.
    func fieldType(_ name: String, of parent: String) -> GraphQLOutputType? {
        if name == "__typename" { return GraphQLNonNull(GraphQLString) }
        if fieldMaps[parent] == nil {
            switch type(named: parent) {
            case let object as GraphQLObjectType: fieldMaps[parent] = (try? object.fields()) ?? [:]
            case let interface as GraphQLInterfaceType: fieldMaps[parent] = (try? interface.fields()) ?? [:]
            default: fieldMaps[parent] = [:]
            }
        }
        return fieldMaps[parent]?[name]?.type
    }

    /// The description of field `name` of `parent`, for its property's doc comment.
    func fieldDescription(_ name: String, of parent: String) -> String? {
        _ = fieldType(name, of: parent)
        return fieldMaps[parent]?[name]?.description
    }

    /// The object types a value of type `name` may be: itself for an object type, the
    /// members or implementations of a union or interface.
    func possibleTypes(of name: String) -> Set<String> {
        if let known = possible[name] { return known }
        let types: Set<String> = switch type(named: name) {
        case let union as GraphQLUnionType: Set(schema.getPossibleTypes(abstractType: union).map(\.name))
        case let interface as GraphQLInterfaceType: Set(schema.getPossibleTypes(abstractType: interface).map(\.name))
        default: [name]
        }
        possible[name] = types
        return types
    }

    func isObjectType(_ name: String) -> Bool { type(named: name) is GraphQLObjectType }

    /// The types a selection on `name` may be conditioned on and still be the selection's
    /// own, as Apollo iOS decides by the types' declarations: `name`, the interfaces it
    /// implements, and for an object type the unions it is a member of. A condition on any
    /// other type is a type case, even when every current member of `name` meets it.
    func matchingTypes(of name: String) -> Set<String> {
        if let known = matching[name] { return known }
        var types: Set<String> = [name]
        switch type(named: name) {
        case let object as GraphQLObjectType:
            types.formUnion(((try? object.interfaces()) ?? []).map(\.name))
            for case let union as GraphQLUnionType in schema.typeMap.values where possibleTypes(of: union.name).contains(name) {
                types.insert(union.name)
            }
        case let interface as GraphQLInterfaceType:
            types.formUnion(((try? interface.interfaces()) ?? []).map(\.name))
        default: break
        }
        matching[name] = types
        return types
    }
}

/// A GraphQL type reference taken apart: the named type at its core and the wrappers
/// around it, outermost first.
struct TypeShape {
    enum Wrapper { case list, nonNull }
    let named: GraphQLNamedType
    let wrappers: [Wrapper]

    init(named: GraphQLNamedType, wrappers: [Wrapper]) {
        self.named = named
        self.wrappers = wrappers
    }

    init(_ type: GraphQLType) {
        var wrappers: [Wrapper] = []
        var current: GraphQLType = type
        while true {
            if let nonNull = current as? GraphQLNonNull { wrappers.append(.nonNull); current = nonNull.ofType; continue }
            if let list = current as? GraphQLList { wrappers.append(.list); current = list.ofType; continue }
            break
        }
        self.named = current as! GraphQLNamedType  // every type is named once its wrappers are off
        self.wrappers = wrappers
    }

    var isList: Bool { wrappers.contains(.list) }

    /// The type as GraphQL writes it: `[Trip!]!`.
    var graphQL: String {
        wrappers.reversed().reduce(named.name) { text, wrapper in wrapper == .nonNull ? text + "!" : "[" + text + "]" }
    }

    /// The Swift type of a value of this shape around `base`: `String!` → `String`,
    /// `[Trip!]` → `[Trip]?`.
    func swift(_ base: String, optional: Bool = false) -> String {
        var text = base
        var nonNull = false
        for wrapper in wrappers.reversed() {
            switch wrapper {
            case .nonNull: nonNull = true
            case .list:
                if !nonNull { text += "?" }
                text = "[\(text)]"
                nonNull = false
            }
        }
        if !nonNull || optional { text += "?" }
        return text
    }
}

extension SchemaTypes {
    /// The shape of the type a variable declares.
    func shape(of node: any GraphQL.`Type`) -> TypeShape {
        var wrappers: [TypeShape.Wrapper] = []
        var current: any GraphQL.`Type` = node
        while true {
            if let nonNull = current as? NonNullType { wrappers.append(.nonNull); current = nonNull.type; continue }
            if let list = current as? ListType { wrappers.append(.list); current = list.type; continue }
            break
        }
        // Validated operations declare only types the schema has.
        return TypeShape(named: type(named: (current as! NamedType).name.value)!, wrappers: wrappers)
    }

    /// The root type an operation of `kind` selects on.
    func rootType(of kind: ProjectDefinition.Kind) -> String {
        switch kind {
        case .mutation: schema.mutationType?.name ?? "Mutation"
        case .subscription: schema.subscriptionType?.name ?? "Subscription"
        default: schema.queryType?.name ?? "Query"
        }
    }

    static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
}
