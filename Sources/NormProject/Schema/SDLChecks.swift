import GraphQL
import NormCache

/// The checks GraphQLSwift 4.3.0's SDL rules (`specifiedSDLRules`) make before it builds a
/// schema, made as one pass over the parsed definitions' names, so the schema can then be
/// built with `assumeValidSDL`. The rules walk every node through GraphQLSwift's visitor,
/// about 3 µs a node; the same checks over names cost a small part of that.
///
/// They refuse exactly what the rules refuse, quirks included (Tests/NormProjectTests/
/// SDLChecksTests.swift holds that against the rules): a directive on `extend type` is not
/// checked for its location, one on a field of `extend input` is checked as on an argument,
/// a directive name counts as a type name, the schema's operation types are not looked
/// up (building the schema refuses an unknown one), and only directives the document
/// defines are limited to one use per place. The messages are the rules', without their "Did you mean"
/// suggestions, each placed at the node at fault.
///
/// ```swift
/// let definitions = try parse(source: Source(body: "type Query { trips: [Tirp] }", name: "schema.graphqls")).definitions
/// SDLChecks.problems(of: definitions)   // [schema.graphqls:1:22: Unknown type "Tirp".]
/// ```
struct SDLChecks {
    /// What the rules know of a directive: where it may go, its arguments, those required
    /// (with their types, for the message), and whether it may be used once a place.
    private struct DirectiveShape {
        let locations: Set<String>
        let arguments: Set<String>
        let required: [(name: String, type: String)]
        let once: Bool
    }

    /// The problems of `definitions`; `nil` when they hold an operation or a fragment, on
    /// which the rules check more (arguments of fields, variables' types): then only the
    /// rules can judge them.
    static func problems(of definitions: [Definition]) -> [ProjectError.Problem]? {
        guard definitions.allSatisfy({ $0 is TypeSystemDefinition }) else { return nil }
        var checks = SDLChecks(definitions)
        for definition in definitions { checks.check(definition) }
        return checks.errors.map(ProjectError.Problem.init)
    }

    private static let specifiedDirectives = [GraphQLIncludeDirective, GraphQLSkipDirective, GraphQLDeprecatedDirective,
                                              GraphQLSpecifiedByDirective, GraphQLOneOfDirective]
    /// Types a schema may use without defining them.
    private static let standardTypes: Set<String> = ["String", "Int", "Float", "Boolean", "ID", "__Schema", "__Directive",
                                                      "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue", "__TypeKind"]
    private static let extensionKinds: [Kind: Kind] = [
        .scalarTypeDefinition: .scalarExtensionDefinition, .objectTypeDefinition: .typeExtensionDefinition,
        .interfaceTypeDefinition: .interfaceExtensionDefinition, .unionTypeDefinition: .unionExtensionDefinition,
        .enumTypeDefinition: .enumExtensionDefinition, .inputObjectTypeDefinition: .inputObjectExtensionDefinition,
    ]
    private static let extendedKindNames: [Kind: String] = [
        .scalarExtensionDefinition: "scalar", .typeExtensionDefinition: "object", .interfaceExtensionDefinition: "interface",
        .unionExtensionDefinition: "union", .enumExtensionDefinition: "enum", .inputObjectExtensionDefinition: "input object",
    ]

    private let directives: [String: DirectiveShape]
    /// Names a named type may have: every type's and directive's defined here.
    private let typeNames: Set<String>
    /// Each type name's last definition here, which its extensions must match.
    private let typeDefinitions: [String: TypeDefinition]

    private var errors: [GraphQLError] = []
    private var schemaDefined = false
    private var operationTypes: [OperationType: OperationTypeDefinition] = [:]
    private var definedTypes: [String: Name] = [:]
    private var definedDirectives: [String: Name] = [:]
    private var enumValues: [String: [String: Name]] = [:]
    private var fieldNames: [String: [String: Name]] = [:]

    private init(_ definitions: [Definition]) {
        var directives: [String: DirectiveShape] = [:]
        for directive in Self.specifiedDirectives {
            directives[directive.name] = DirectiveShape(
                locations: Set(directive.locations.map(\.rawValue)), arguments: Set(directive.args.map(\.name)),
                required: directive.args.filter(isRequiredArgument).map { ($0.name, "\($0.type)") }, once: false)
        }
        var typeNames = Self.standardTypes
        var typeDefinitions: [String: TypeDefinition] = [:]
        for definition in definitions {
            switch definition {
            case let directive as DirectiveDefinition:
                typeNames.insert(directive.name.value)
                directives[directive.name.value] = DirectiveShape(
                    locations: Set(directive.locations.map(\.value)), arguments: Set(directive.arguments.map(\.name.value)),
                    required: directive.arguments.filter { $0.type is NonNullType && $0.defaultValue == nil }
                        .map { ($0.name.value, print(ast: $0.type)) },
                    once: !directive.repeatable)
            case let type as TypeDefinition:
                typeNames.insert(type.name.value)
                typeDefinitions[type.name.value] = type
            default: break
            }
        }
        self.directives = directives
        self.typeNames = typeNames
        self.typeDefinitions = typeDefinitions
    }

    private mutating func check(_ definition: Definition) {
        switch definition {
        case let schema as SchemaDefinition:
            if schemaDefined { report("Must provide only one schema definition.", schema) }
            schemaDefined = true
            checkSchema(schema)
        case let schema as SchemaExtensionDefinition:
            checkSchema(schema.definition)
        case let scalar as ScalarTypeDefinition:
            checkUnique(type: scalar.name)
            checkDirectives(scalar.directives, at: .scalar)
        case let scalar as ScalarExtensionDefinition:
            checkExtension(scalar, of: scalar.definition.name)
            checkDirectives(scalar.definition.directives, at: .scalar)
        case let object as ObjectTypeDefinition:
            checkUnique(type: object.name)
            checkFields(object.fields, of: object.name, implementing: object.interfaces)
            checkDirectives(object.directives, at: .object)
        case let object as TypeExtensionDefinition:
            checkExtension(object, of: object.definition.name)
            checkFields(object.definition.fields, of: object.definition.name, implementing: object.definition.interfaces)
            checkDirectives(object.definition.directives, at: nil)
        case let interface as InterfaceTypeDefinition:
            checkUnique(type: interface.name)
            checkFields(interface.fields, of: interface.name, implementing: interface.interfaces)
            checkDirectives(interface.directives, at: .interface)
        case let interface as InterfaceExtensionDefinition:
            checkExtension(interface, of: interface.definition.name)
            checkFields(interface.definition.fields, of: interface.definition.name, implementing: interface.definition.interfaces)
            checkDirectives(interface.definition.directives, at: .interface)
        case let union as UnionTypeDefinition:
            checkUnion(union)
            checkUnique(type: union.name)
        case let union as UnionExtensionDefinition:
            checkUnion(union.definition)
            checkExtension(union, of: union.definition.name)
        case let enumeration as EnumTypeDefinition:
            checkEnum(enumeration)
            checkUnique(type: enumeration.name)
        case let enumeration as EnumExtensionDefinition:
            checkEnum(enumeration.definition)
            checkExtension(enumeration, of: enumeration.definition.name)
        case let input as InputObjectTypeDefinition:
            checkUnique(type: input.name)
            checkInputFields(input, fieldsAt: .inputFieldDefinition)
        case let input as InputObjectExtensionDefinition:
            checkExtension(input, of: input.definition.name)
            checkInputFields(input.definition, fieldsAt: .argumentDefinition)
        case let directive as DirectiveDefinition:
            if let first = definedDirectives[directive.name.value] {
                report("There can be only one directive named \"@\(directive.name.value)\".", first, directive.name)
            } else {
                definedDirectives[directive.name.value] = directive.name
            }
            checkArguments(directive.arguments, of: "@\(directive.name.value)")
        default: break
        }
    }

    private mutating func checkSchema(_ schema: SchemaDefinition) {
        for operationType in schema.operationTypes {
            if let first = operationTypes[operationType.operation] {
                report("There can be only one \(operationType.operation) type in schema.", first, operationType)
            } else {
                operationTypes[operationType.operation] = operationType
            }
        }
        checkDirectives(schema.directives, at: .schema)
    }

    private mutating func checkUnique(type name: Name) {
        if let first = definedTypes[name.value] {
            report("There can be only one type named \"\(name.value)\".", first, name)
        } else {
            definedTypes[name.value] = name
        }
    }

    /// An extension extends a type defined here, of its kind.
    private mutating func checkExtension(_ node: Node, of name: Name) {
        guard let definition = typeDefinitions[name.value] else {
            return report("Cannot extend type \"\(name.value)\" because it is not defined.", name)
        }
        if Self.extensionKinds[definition.kind] != node.kind {
            report("Cannot extend non-\(Self.extendedKindNames[node.kind] ?? "") type \"\(name.value)\".", definition, node)
        }
    }

    /// The fields of an object or interface type, or of an extension of one.
    private mutating func checkFields(_ fields: [FieldDefinition], of type: Name, implementing interfaces: [NamedType]) {
        for interface in interfaces { checkKnown(interface) }
        for field in fields {
            checkUnique(field: field.name, of: type)
            checkArguments(field.arguments, of: "\(type.value).\(field.name.value)")
            checkKnown(SchemaOutline.namedType(field.type))
            checkDirectives(field.directives, at: .fieldDefinition)
        }
    }

    private mutating func checkUnique(field name: Name, of type: Name) {
        if let first = fieldNames[type.value]?[name.value] {
            report("Field \"\(type.value).\(name.value)\" can only be defined once.", first, name)
        } else {
            fieldNames[type.value, default: [:]][name.value] = name
        }
    }

    /// The arguments of a field or a directive definition (`parent` names it in messages).
    private mutating func checkArguments(_ arguments: [InputValueDefinition], of parent: String) {
        var seen: [String: [Name]] = [:]
        for argument in arguments {
            seen[argument.name.value, default: []].append(argument.name)
            checkInputValue(argument, at: .argumentDefinition)
        }
        for (name, names) in seen where names.count > 1 {
            report("Argument \"\(parent)(\(name):)\" can only be defined once.", names)
        }
    }

    private mutating func checkInputValue(_ value: InputValueDefinition, at location: DirectiveLocation) {
        checkKnown(SchemaOutline.namedType(value.type))
        if let defaultValue = value.defaultValue { checkInputFieldNames(defaultValue) }
        checkDirectives(value.directives, at: location)
    }

    private mutating func checkInputFields(_ input: InputObjectTypeDefinition, fieldsAt location: DirectiveLocation) {
        for field in input.fields {
            checkUnique(field: field.name, of: input.name)
            checkInputValue(field, at: location)
        }
        checkDirectives(input.directives, at: .inputObject)
    }

    private mutating func checkUnion(_ union: UnionTypeDefinition) {
        for member in union.types { checkKnown(member) }
        checkDirectives(union.directives, at: .union)
    }

    private mutating func checkEnum(_ enumeration: EnumTypeDefinition) {
        for value in enumeration.values {
            if let first = enumValues[enumeration.name.value]?[value.name.value] {
                report("Enum value \"\(enumeration.name.value).\(value.name.value)\" can only be defined once.", first, value.name)
            } else {
                enumValues[enumeration.name.value, default: [:]][value.name.value] = value.name
            }
            checkDirectives(value.directives, at: .enumValue)
        }
        checkDirectives(enumeration.directives, at: .enum)
    }

    private mutating func checkKnown(_ type: NamedType) {
        if !typeNames.contains(type.name.value) { report("Unknown type \"\(type.name.value)\".", type) }
    }

    /// The directives of one place: each known, allowed there (unless `location` is `nil`),
    /// with known, unique and required arguments, and used once if it may be used once.
    private mutating func checkDirectives(_ uses: [Directive], at location: DirectiveLocation?) {
        var usedOnce: [String: Directive] = [:]
        for use in uses {
            let name = use.name.value
            var arguments: [String: [Name]] = [:]
            for argument in use.arguments {
                arguments[argument.name.value, default: []].append(argument.name)
                checkInputFieldNames(argument.value)
            }
            for (argument, names) in arguments where names.count > 1 {
                report("There can be only one argument named \"\(argument)\".", names)
            }
            guard let shape = directives[name] else {
                report("Unknown directive \"@\(name)\".", use)
                continue
            }
            if let location, !shape.locations.contains(location.rawValue) {
                report("Directive \"@\(name)\" may not be used on \(location.rawValue).", use)
            }
            for argument in use.arguments where !shape.arguments.contains(argument.name.value) {
                report("Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\".", argument)
            }
            for required in shape.required where arguments[required.name] == nil {
                report("Argument \"@\(name)(\(required.name):)\" of type \"\(required.type)\" is required, but it was not provided.", use)
            }
            if shape.once {
                if let first = usedOnce[name] {
                    report("The directive \"@\(name)\" can only be used once at this location.", first, use)
                } else {
                    usedOnce[name] = use
                }
            }
        }
    }

    /// Each input object in `value`, however deep, names each field once.
    private mutating func checkInputFieldNames(_ value: Value) {
        switch value {
        case let object as ObjectValue:
            var seen: [String: Name] = [:]
            for field in object.fields {
                if let first = seen[field.name.value] {
                    report("There can be only one input field named \"\(field.name.value)\".", first, field.name)
                } else {
                    seen[field.name.value] = field.name
                }
                checkInputFieldNames(field.value)
            }
        case let list as ListValue:
            for element in list.values { checkInputFieldNames(element) }
        default: break
        }
    }

    private mutating func report(_ message: String, _ nodes: Node...) {
        report(message, nodes)
    }

    private mutating func report(_ message: String, _ nodes: [Node]) {
        errors.append(GraphQLError(message: message, nodes: nodes))
    }
}
