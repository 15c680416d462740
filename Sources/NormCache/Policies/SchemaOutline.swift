import GraphQL

/// What the schema's definitions and extensions declare, by name, with where: the kind of
/// each type, the fields of objects, interfaces and input objects with their arguments, and
/// the interfaces each type implements. The cache directives are checked against it, and
/// GraphQLSwift's schema errors (which carry no place) are placed with it (``place(of:)``,
/// for a project's schema).
package struct SchemaOutline {
    enum Kind { case object, interface, union, enumeration, scalar, inputObject }

    struct Field {
        /// The named type of the field, without list or non-null wrappers.
        let type: String
        /// Each argument's named type.
        let arguments: [String: String]
    }

    private(set) var kinds: [String: Kind] = ["String": .scalar, "Int": .scalar, "Float": .scalar, "Boolean": .scalar, "ID": .scalar]
    private(set) var fields: [String: [String: Field]] = [:]
    private(set) var interfaces: [String: [String]] = [:]
    /// Where each type is first defined or extended, and each type or directive (`@name`)
    /// first named.
    private(set) var places: [String: Location] = [:]

    package init(_ definitions: [Definition]) {
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition: add(object, .object)
            case let object as TypeExtensionDefinition: add(object.definition, .object)
            case let interface as InterfaceTypeDefinition: add(interface, .interface)
            case let interface as InterfaceExtensionDefinition: add(interface.definition, .interface)
            case let union as UnionTypeDefinition: declare(union.name, .union, union.directives); for member in union.types { mention(member) }
            case let union as UnionExtensionDefinition: declare(union.definition.name, .union, union.definition.directives)
            case let enumeration as EnumTypeDefinition: declare(enumeration.name, .enumeration, enumeration.directives)
            case let scalar as ScalarTypeDefinition: declare(scalar.name, .scalar, scalar.directives)
            case let input as InputObjectTypeDefinition: addInput(input)
            case let input as InputObjectExtensionDefinition: addInput(input.definition)
            default: break
            }
        }
    }

    private mutating func add(_ type: ObjectTypeDefinition, _ kind: Kind) {
        add(name: type.name, kind, type.interfaces, type.directives, type.fields)
    }

    private mutating func add(_ type: InterfaceTypeDefinition, _ kind: Kind) {
        add(name: type.name, kind, type.interfaces, type.directives, type.fields)
    }

    private mutating func add(name: Name, _ kind: Kind, _ implements: [NamedType], _ directives: [Directive], _ definitions: [FieldDefinition]) {
        declare(name, kind, directives)
        interfaces[name.value, default: []] += implements.map(\.name.value)
        for interface in implements { mention(interface) }
        for field in definitions {
            var arguments: [String: String] = [:]
            for argument in field.arguments {
                arguments[argument.name.value] = Self.namedType(argument.type).name.value
                mention(Self.namedType(argument.type))
            }
            fields[name.value, default: [:]][field.name.value] = Field(type: Self.namedType(field.type).name.value, arguments: arguments)
            mention(Self.namedType(field.type))
        }
    }

    private mutating func addInput(_ input: InputObjectTypeDefinition) {
        declare(input.name, .inputObject, input.directives)
        for field in input.fields {
            fields[input.name.value, default: [:]][field.name.value] = Field(type: Self.namedType(field.type).name.value, arguments: [:])
            mention(Self.namedType(field.type))
        }
    }

    private mutating func declare(_ name: Name, _ kind: Kind, _ directives: [Directive]) {
        kinds[name.value] = kind
        if places[name.value] == nil { places[name.value] = name.loc }
        for directive in directives where places["@" + directive.name.value] == nil { places["@" + directive.name.value] = directive.loc }
    }

    private mutating func mention(_ type: NamedType) {
        if places[type.name.value] == nil { places[type.name.value] = type.loc }
    }

    /// `[Trip!]!` → `Trip`.
    package static func namedType(_ type: any GraphQL.`Type`) -> NamedType {
        switch type {
        case let list as ListType: namedType(list.type)
        case let nonNull as NonNullType: namedType(nonNull.type)
        default: type as! NamedType
        }
    }

    /// Whether values of the type are leaves (scalars and enums), as key fields must be.
    func isLeaf(_ type: String) -> Bool { kinds[type] == .scalar || kinds[type] == .enumeration }

    /// The place a schema error refers to: the first type or directive its message quotes.
    package func place(of message: String) -> Location? {
        message.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .lazy.filter { $0.offset % 2 == 1 }.compactMap { places[String($0.element)] }.first
    }
}
