import GraphQL

/// The cache directives, read from the schema's definitions and extensions: Apollo iOS's
/// `extend type Trip @typePolicy(keyFields: "id")` on object types and interfaces, and
/// `extend type Query @fieldPolicy(forField: "trip", keyArgs: "id")`, several on one type;
/// and the max ages of Apollo Server's `@cacheControl(maxAge: 60)` or
/// `@cacheControl(inheritMaxAge: true)` on object types, interfaces, unions and fields
/// (`scope:` is accepted and ignored), and Apollo Kotlin's
/// `extend type User @cacheControlField(name: "email", maxAge: 20)`, several on one type;
/// and Apollo Kotlin's pagination: `@typePolicy(connectionFields: "users")`, `@connection`
/// on a connection type, `@fieldPolicy(forField: "posts", paginationArgs: "offset limit")`
/// and `@typePolicy(embeddedFields: "settings")` (or the newer `@embeddedField(name:)` on a
/// type, `@embedded` on a field) (``Pagination``).
/// Each names fields and arguments the type has, gives a max age of whole seconds (0 or
/// more) or inherits, and each coordinate once, or it is a problem at the directive. (The
/// project's schema declares them when its files do not.) ``SchemaKnowledge/init(schema:outline:problems:)``
/// is the one place that reads them.
package struct CacheDirectives {
    /// A directive that names what the schema does not have, or is given twice, with where.
    package struct Problem: Equatable {
        package let location: Location?
        package let message: String
    }

    private(set) var typePolicies = TypePolicies()
    private(set) var fieldPolicies = FieldPolicies()
    private(set) var maxAges = MaxAges()
    private(set) var pagination = Pagination()
    private(set) var problems: [Problem] = []

    init(_ definitions: [Definition], outline: SchemaOutline) {
        var declared: Set<String> = []   // "Trip" and "Query.trip": those that have a policy
        var aged: Set<String> = []       // "Trip" and "Trip.name": those that have a max age
        for definition in definitions {
            guard let (type, directives, fields) = Self.typeAndDirectives(definition) else { continue }
            for field in fields {
                for directive in field.directives {
                    switch directive.name.value {
                    case "cacheControl": maxAge(type + "." + field.name.value, from: directive, ruled: &aged)
                    case "embedded": page(field.name.value, of: type, as: "@embedded", in: directive, outline: outline)
                    default: continue
                    }
                }
            }
            for directive in directives {
                switch directive.name.value {
                case "typePolicy":
                    let paging = ["connectionFields", "embeddedFields"].filter { name in directive.arguments.contains { $0.name.value == name } }
                    for name in paging { page(fieldsNamedBy: name, of: type, in: directive, outline: outline) }
                    if !paging.isEmpty, !directive.arguments.contains(where: { $0.name.value == "keyFields" }) { continue }
                    guard let keyFields = argument("keyFields", of: directive) else { continue }
                    guard declared.insert(type).inserted else {
                        problem(at: directive, "a second @typePolicy for \(type): a type has one")
                        continue
                    }
                    for field in keyFields where outline.fields[type]?[field] == nil {
                        problem(at: directive, "@typePolicy(keyFields:) names \"\(field)\", which \(type) does not have")
                    }
                    for field in keyFields {
                        if let fieldType = outline.fields[type]?[field]?.type, !outline.isLeaf(fieldType) {
                            problem(at: directive, "@typePolicy(keyFields:) names \"\(field)\", a \(fieldType): key fields are scalars")
                        }
                    }
                    typePolicies[type] = .keyFields(keyFields)
                case "fieldPolicy":
                    let paginates = directive.arguments.contains { $0.name.value == "paginationArgs" }
                    guard let field = argument("forField", of: directive)?.joined(separator: " ") else { continue }
                    let keyArgs = paginates && !directive.arguments.contains(where: { $0.name.value == "keyArgs" }) ? []
                        : argument("keyArgs", of: directive)
                    guard let keyArgs else { continue }
                    guard let definition = outline.fields[type]?[field] else {
                        problem(at: directive, "@fieldPolicy(forField:) names \"\(field)\", which \(type) does not have")
                        continue
                    }
                    guard declared.insert(type + "." + field).inserted else {
                        problem(at: directive, "a second @fieldPolicy for \(type).\(field): a field has one")
                        continue
                    }
                    for path in keyArgs where !Self.hasArgument(path, of: definition, outline: outline) {
                        problem(at: directive, "@fieldPolicy(keyArgs:) names \"\(path)\", which \(type).\(field) has no argument for")
                    }
                    if !keyArgs.isEmpty { fieldPolicies[type, field] = keyArgs }
                    if paginates { paginate(field, of: type, definition: definition, by: directive) }
                case "connection":
                    connectionTypes.append((type, directive))
                case "embeddedField":
                    guard let field = argument("name", of: directive)?.joined(separator: " ") else { continue }
                    page(field, of: type, as: "@embeddedField(name:)", in: directive, outline: outline)
                case "cacheControl":
                    maxAge(type, from: directive, ruled: &aged)
                case "cacheControlField":
                    guard let field = argument("name", of: directive)?.joined(separator: " ") else { continue }
                    guard outline.fields[type]?[field] != nil else {
                        problem(at: directive, "@cacheControlField(name:) names \"\(field)\", which \(type) does not have")
                        continue
                    }
                    maxAge(type + "." + field, from: directive, ruled: &aged)
                default: continue
                }
            }
        }
        applyInterfacePolicies(outline)
        applyConnectionTypes(outline)
    }

    /// The types marked `@connection`, with the directive: every field of that type is one.
    private var connectionTypes: [(type: String, directive: Directive)] = []

    /// `@typePolicy(connectionFields:)` or `(embeddedFields:)` on `type`.
    private mutating func page(fieldsNamedBy name: String, of type: String, in directive: Directive, outline: SchemaOutline) {
        guard let fields = argument(name, of: directive) else { return }
        for field in fields { page(field, of: type, as: "@typePolicy(\(name):)", in: directive, outline: outline) }
    }

    /// Declares `field` of `type` a connection (`declaration` is `connectionFields`) or
    /// embedded (`embeddedFields`, Apollo Kotlin's newer `@embeddedField(name:)` and
    /// `@embedded`): it must be one of the type's, hold objects, and for a connection
    /// have `edges { node }`.
    private mutating func page(_ field: String, of type: String, as declaration: String, in directive: Directive, outline: SchemaOutline) {
        guard let definition = outline.fields[type]?[field] else {
            return problem(at: directive, "\(declaration) names \"\(field)\", which \(type) does not have")
        }
        if outline.isLeaf(definition.type) {
            return problem(at: directive, "\(declaration) names \"\(field)\", a \(definition.type): it holds no objects to keep inline")
        }
        guard declaration.contains("connectionFields") else { return pagination.embed(type, field) }
        if let missing = Self.connectionShapeMissing(definition.type, outline: outline) {
            return problem(at: directive, "\(declaration) names \"\(field)\", whose type \(definition.type) \(missing)")
        }
        connection(type, field, at: directive)
    }

    /// What `type` lacks of a Relay connection (`edges`, each with a `node`), or nil.
    private static func connectionShapeMissing(_ type: String, outline: SchemaOutline) -> String? {
        guard let edges = outline.fields[type]?["edges"] else { return "has no edges: a connection has edges, each with a node (Relay's connections)" }
        guard outline.fields[edges.type]?["node"] != nil else { return "has edges of \(edges.type), which has no node: each edge has a node (Relay's connections)" }
        return nil
    }

    /// Declares `type.field` a connection, unless `@fieldPolicy(paginationArgs:)` declared it otherwise.
    private mutating func connection(_ type: String, _ field: String, at directive: Directive) {
        if let style = pagination[type, field], style != .connection {
            return problem(at: directive, "\(type).\(field) is a connection here and has @fieldPolicy(paginationArgs:) too: a field pages one way")
        }
        pagination[type, field] = .connection
    }

    /// `@fieldPolicy(forField: field, paginationArgs: "offset limit")` on `type`: arguments
    /// the field has, top-level, one of them its offset (`offset` or `skip`).
    private mutating func paginate(_ field: String, of type: String, definition: SchemaOutline.Field, by directive: Directive) {
        guard let arguments = argument("paginationArgs", of: directive) else { return }
        for name in arguments where definition.arguments[name] == nil {
            return problem(at: directive, "@fieldPolicy(paginationArgs:) names \"\(name)\", which \(type).\(field) has no "
                           + (name.contains(".") ? "top-level argument for (pages are merged by top-level arguments)" : "argument for"))
        }
        guard let offset = arguments.first(where: { $0 == "offset" || $0 == "skip" }) else {
            return problem(at: directive, "@fieldPolicy(paginationArgs:) for \(type).\(field) names no offset or skip argument: "
                           + "pages merge by position from it")
        }
        if pagination[type, field] == .connection {
            return problem(at: directive, "\(type).\(field) is a connection and has @fieldPolicy(paginationArgs:) too: a field pages one way")
        }
        pagination[type, field] = .offset(argument: offset, arguments: arguments)
    }

    /// Every field whose type is marked `@connection` is a connection (Apollo Kotlin's newer form).
    private mutating func applyConnectionTypes(_ outline: SchemaOutline) {
        for (connectionType, directive) in connectionTypes {
            if let missing = Self.connectionShapeMissing(connectionType, outline: outline) {
                problem(at: directive, "@connection on \(connectionType), which \(missing)")
                continue
            }
            for (type, fields) in outline.fields.sorted(by: { $0.key < $1.key }) where outline.kinds[type] == .object || outline.kinds[type] == .interface {
                for (field, definition) in fields.sorted(by: { $0.key < $1.key }) where definition.type == connectionType {
                    connection(type, field, at: directive)
                }
            }
        }
    }

    /// The type a definition or extension is about, its directives, and its fields (none
    /// for a union): object types, interfaces and unions, the directives' locations.
    private static func typeAndDirectives(_ definition: Definition) -> (String, [Directive], [FieldDefinition])? {
        switch definition {
        case let object as ObjectTypeDefinition: (object.name.value, object.directives, object.fields)
        case let object as TypeExtensionDefinition: (object.definition.name.value, object.definition.directives, object.definition.fields)
        case let interface as InterfaceTypeDefinition: (interface.name.value, interface.directives, interface.fields)
        case let interface as InterfaceExtensionDefinition:
            (interface.definition.name.value, interface.definition.directives, interface.definition.fields)
        case let union as UnionTypeDefinition: (union.name.value, union.directives, [])
        case let union as UnionExtensionDefinition: (union.definition.name.value, union.definition.directives, [])
        default: nil
        }
    }

    /// The max age `directive` (`@cacheControl`, `@cacheControlField`) gives `coordinate`
    /// (`Trip`, `Trip.name`): `maxAge:` whole seconds, or `inheritMaxAge: true`, not both
    /// (with only `scope:`, none); a coordinate in `ruled` already has one.
    private mutating func maxAge(_ coordinate: String, from directive: Directive, ruled: inout Set<String>) {
        let name = "@" + directive.name.value
        let maxAge = directive.arguments.first { $0.name.value == "maxAge" }?.value
        let inherits = (directive.arguments.first { $0.name.value == "inheritMaxAge" }?.value as? BooleanValue)?.value == true
        let rule: MaxAges.Rule
        switch (maxAge, inherits) {
        case (nil, true):
            rule = .inherit
        case (let value?, false):
            guard let seconds = (value as? IntValue).flatMap({ Int($0.value) }), seconds >= 0 else {
                return problem(at: directive, "\(name)(maxAge: \(print(ast: value))) for \(coordinate): a max age is whole seconds, 0 or more")
            }
            rule = .seconds(Double(seconds))
        case (_?, true):
            return problem(at: directive, "\(name) for \(coordinate) gives both maxAge and inheritMaxAge: true: give one")
        case (nil, false):
            // `@cacheControl(scope: PRIVATE)` alone is valid for Apollo Server: it sets no max age.
            if directive.arguments.contains(where: { $0.name.value == "scope" }) { return }
            return problem(at: directive, "\(name) for \(coordinate) needs maxAge: SECONDS or inheritMaxAge: true")
        }
        guard ruled.insert(coordinate).inserted else {
            return problem(at: directive, "a second max age for \(coordinate) (\(name)): a type or field has one")
        }
        maxAges[coordinate] = rule
    }

    /// A string argument split at spaces or commas (`"firstName lastName"`); a missing, non-string or
    /// empty one is a problem.
    private mutating func argument(_ name: String, of directive: Directive) -> [String]? {
        let value = directive.arguments.first { $0.name.value == name }?.value as? StringValue
        let words = value?.value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) ?? []
        if words.isEmpty { problem(at: directive, "@\(directive.name.value) needs \(name): \"…\" naming at least one \(name.hasSuffix("Args") ? "argument" : "field")") }
        return words.isEmpty ? nil : words
    }

    /// Whether `path` (`id`, or `input.id` into an input object) names an argument of `field`.
    private static func hasArgument(_ path: String, of field: SchemaOutline.Field, outline: SchemaOutline) -> Bool {
        let steps = path.split(separator: ".").map(String.init)
        guard var type = steps.first.flatMap({ field.arguments[$0] }) else { return false }
        for step in steps.dropFirst() {
            guard let next = outline.fields[type]?[step]?.type, outline.kinds[type] == .inputObject else { return false }
            type = next
        }
        return true
    }

    /// An interface's policy applies to the object types that implement it and have none of
    /// their own; two interfaces with different key fields leave such a type undecided.
    private mutating func applyInterfacePolicies(_ outline: SchemaOutline) {
        for (type, kind) in outline.kinds where kind == .object && typePolicies[type] == nil {
            let inherited = (outline.interfaces[type] ?? []).compactMap { interface in typePolicies[interface].map { (interface, $0) } }
            guard let first = inherited.first else { continue }
            if inherited.allSatisfy({ $0.1 == first.1 }) {
                typePolicies[type] = first.1
            } else {
                problems.append(Problem(location: outline.places[type], message: "\(type) implements \(inherited.map(\.0).joined(separator: " and ")), "
                                      + "whose @typePolicy key fields differ: give \(type) a @typePolicy of its own"))
            }
        }
    }

    private mutating func problem(at directive: Directive, _ message: String) {
        problems.append(Problem(location: directive.loc, message: message))
    }
}
