/// The types of a schema built from SDL, re-created so that the schema executes.
///
/// `buildSchema` leaves every resolver out and gives unions and interfaces no way to tell
/// which object type a value is (`resolveType` and `isTypeOf` are constants). So every
/// object, interface and union type is made again under its name: fields keep their
/// arguments and descriptions, their types point to the re-created types, the root fields
/// get their resolvers (a subscription field its event source, and the event as its value), and an abstract type reads the value's `"__typename"`. Scalars,
/// enums and input types are used as they are.
///
/// Object and interface types are made first without fields, unions then with their
/// members, and last the fields and interfaces of each, once every type they name exists.
struct ExecutableTypes {
    private var composites: [String: any GraphQLCompositeType] = [:]

    /// How a root field gets its value: resolved, or (a subscription field) each event of the
    /// sequence its subscriber starts.
    enum RootField {
        case resolve(GraphQLFieldResolve)
        case subscribe(GraphQLFieldResolve)
    }

    /// The executable schema of `declared`, with `resolvers` by type name and field name.
    static func schema(of declared: GraphQLSchema, resolvers: [String: [String: RootField]]) throws -> GraphQLSchema {
        let types = declared.typeMap.values.filter { !$0.name.hasPrefix("__") }
        var table = ExecutableTypes()
        for type in types {
            switch type {
            case let object as GraphQLObjectType:
                table.composites[object.name] = try GraphQLObjectType(name: object.name, description: object.description, astNode: object.astNode)
            case let interface as GraphQLInterfaceType:
                table.composites[interface.name] = try GraphQLInterfaceType(
                    name: interface.name, description: interface.description, resolveType: typename, astNode: interface.astNode
                )
            default:
                break
            }
        }
        for case let union as GraphQLUnionType in types {
            table.composites[union.name] = try GraphQLUnionType(
                name: union.name, description: union.description, resolveType: typename, types: union.types().map(table.composite)
            )
        }
        for type in types {
            try table.complete(type, resolvers: resolvers[type.name] ?? [:])
        }
        return try GraphQLSchema(
            query: declared.queryType.map(table.composite), mutation: declared.mutationType.map(table.composite),
            subscription: declared.subscriptionType.map(table.composite),
            types: types.map { table.composites[$0.name] ?? $0 }, directives: declared.directives
        )
    }

    /// Gives the re-created type of `declared` its fields and interfaces.
    private func complete(_ declared: any GraphQLNamedType, resolvers: [String: RootField]) throws {
        switch declared {
        case let object as GraphQLObjectType:
            let recreated: GraphQLObjectType = try composite(object)
            let fields = try fields(object.fields(), resolvers: resolvers)
            let interfaces: [GraphQLInterfaceType] = try object.interfaces().map(composite)
            recreated.fields = { fields }
            recreated.interfaces = { interfaces }
        case let interface as GraphQLInterfaceType:
            let recreated: GraphQLInterfaceType = try composite(interface)
            let fields = try fields(interface.fields(), resolvers: resolvers)
            let interfaces: [GraphQLInterfaceType] = try interface.interfaces().map(composite)
            recreated.fields = { fields }
            recreated.interfaces = { interfaces }
        default:
            break
        }
    }

    /// The re-created type of the same name as `declared`.
    private func composite<Type>(_ declared: any GraphQLNamedType) throws -> Type {
        guard let type = composites[declared.name] as? Type else { throw PluginError("no \(Type.self) named \(declared.name) in the schema") }
        return type
    }

    private func fields(_ declared: GraphQLFieldMap, resolvers: [String: RootField]) throws -> GraphQLFieldMap {
        var fields = GraphQLFieldMap()
        for (name, field) in declared {
            var resolve: GraphQLFieldResolve?, subscribe: GraphQLFieldResolve?
            switch resolvers[name] {
            case .resolve(let resolver)?: resolve = resolver
            case .subscribe(let subscriber)?: (resolve, subscribe) = ({ event, _, _, _ in event }, subscriber)
            case nil: break
            }
            fields[name] = try GraphQLField(
                type: outputType(field.type), description: field.description,
                deprecationReason: field.deprecationReason, args: field.args,
                resolve: resolve, subscribe: subscribe, astNode: field.astNode
            )
        }
        return fields
    }

    /// `type` with its named type replaced by the re-created one, inside the same lists and non-nulls.
    private func outputType(_ type: any GraphQLType) throws -> any GraphQLOutputType {
        switch type {
        case let list as GraphQLList:
            return try GraphQLList(outputType(list.ofType))
        case let nonNull as GraphQLNonNull:
            return try GraphQLNonNull(outputType(nonNull.ofType))
        case let named as any GraphQLCompositeType:
            return try composite(named) as any GraphQLCompositeType
        case let leaf as any GraphQLLeafType & GraphQLOutputType:
            return leaf
        default:
            throw PluginError("\(type) cannot be the type of a field")
        }
    }
}

/// The object type of a value of a union or an interface: its `"__typename"`.
@Sendable private func typename(of value: any Sendable, info: GraphQLResolveInfo) throws -> any TypeResolveResultRepresentable {
    guard let typename = (value as? [String: any Sendable])?["__typename"] as? String else {
        throw GraphQLError(message: "a \(info.returnType) value needs a \"__typename\" string naming its object type")
    }
    return typename
}
