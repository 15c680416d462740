import GraphQL
import NormCache
import NormProject

/// Writes the Swift type of one selection scope: a stored property per field written in
/// it (a nested type per object field), a computed property per field that comes from one
/// fragment alone (reading `fragments.tripHeader`), `fragments` (with the deferred parts),
/// optional type cases (`asStation`), a memberwise initializer where the configuration asks
/// for one, decoding from ``ResponseData`` and `jsonValue`. A local cache mutation's types
/// are mutable (`NormAPI.MutableSelectionSet`): every field a `var` of its own, fragments
/// and type cases read-only.
struct SelectionSetWriter {
    let schema: SchemaTypes
    let fragments: [String: FragmentDefinition]
    /// How schema types and properties are named, and the namespace the types are in.
    let names: SchemaNames

    /// A property of a scope, as written.
    private struct Property {
        let name: String
        let responseKey: String
        let type: String
        let description: String?
        /// The fragment whose property this one reads; nil for a stored property.
        let via: String?
        /// The scope of the nested type this property's object has, when it has one.
        let nested: (name: String, scope: SelectionScope)?
        /// The name of the property it reads in the fragment `via`.
        var fragmentName: String? = nil
        /// Under an `@include` / `@skip` or `@defer`: nil when it was left out.
        var isConditional = false
    }

    /// How deep below an operation's `Data` or a fragment's type the nested types (a field's
    /// object, a type case) may go: far beyond any real document, and a refusal, not a
    /// crash, for a document or a defect that goes further.
    static let nestingLimit = 64

    /// Writes `struct name` for `scope`. `isRoot`: an operation's `Data` (the root's
    /// `__typename` is not asked for); `conformance`: the protocol it conforms to;
    /// `initializers`: whether it and its nested types get memberwise initializers
    /// (`options.selectionSetInitializers`); `mutable`: whether it and its nested types are
    /// a local cache mutation's (``LocalCacheMutationDirective``); `depth`: how many selection set types it is
    /// nested in. Nesting deeper than ``nestingLimit`` is a ``ProjectError`` at the selection
    /// that opens the type.
    func write(_ name: String, scope: SelectionScope, isRoot: Bool, conformance: String, initializers: Bool, mutable: Bool = false, depth: Int = 0,
               into swift: inout SwiftWriter, header: (inout SwiftWriter) -> Void = { _ in }) throws(ProjectError) {
        guard depth <= Self.nestingLimit else {
            let location = (scope.opening as? any Node)?.loc
            throw ProjectError([.init(file: location?.source.name, line: location?.startToken.line, column: location?.startToken.column,
                                      message: "\(name) is nested \(depth) selection sets deep, more than codegen's limit of \(Self.nestingLimit)")])
        }
        let properties = self.properties(of: scope, mutable: mutable)
        let binding = mutable ? "var" : "let"
        let positions = Self.positions(in: scope, isRoot: isRoot)
        let stored = properties.filter { $0.via == nil }
        let cases = scope.typeCases.map { typeCase in
            (typeCase: typeCase, name: typeCase.name(names.typeName), property: typeCase.property(names.typeName), scope: scope.typeCase(typeCase))
        }
        let typeCases = cases.filter { $0.typeCase.deferredLabel == nil }
        // Under `fragments`: the spread fragments, then the deferred parts.
        let deferredParts = cases.filter { $0.typeCase.deferredLabel != nil }
        let spreads = scope.fragments.map { (fragment: $0, property: SwiftNames.fragmentProperty($0.name), type: SwiftNames.fragmentType($0.name)) }
        let containers = spreads.map { spread in
            (property: spread.property, type: spread.type + (spread.fragment.isOptional ? "?" : ""), isOptional: spread.fragment.isOptional,
             isDeferred: spread.fragment.isDeferred)
        } + deferredParts.map { (property: $0.property, type: $0.name + "?", isOptional: true, isDeferred: true) }
        let hasTypename = !isRoot
        let concrete = schema.isObjectType(scope.typeName) ? scope.typeName : nil

        swift.documentation(isRoot ? nil : "Parent type: `\(scope.typeName)`" + (concrete == nil ? " (abstract: `__typename` says which)." : "."))
        try swift.block("public struct \(name): \(conformance)") { swift throws(ProjectError) in
            header(&swift)
            if hasTypename { swift.line("public \(binding) __typename: String") }
            for property in stored {
                swift.documentation(property.description)
                swift.line("public \(binding) \(property.name): \(property.type)")
            }
            if scope.hasFragments { swift.line("public let fragments: Fragments") }
            for typeCase in typeCases { swift.line("public let \(typeCase.property): \(typeCase.name)?") }
            for property in properties where property.via != nil {
                swift.documentation(property.description)
                swift.line("public var \(property.name): \(property.type) { fragments.\(SwiftNames.fragmentProperty(property.via!)).\(property.fragmentName ?? property.name) }")
            }

            // The memberwise initializer, where the configuration asks for it: tests,
            // previews, optimistic responses.
            if initializers {
                var parameters: [String] = []
                if hasTypename { parameters.append("__typename: String" + (concrete.map { " = \"\($0)\"" } ?? "")) }
                parameters += stored.map { "\($0.name): \($0.type)" }
                parameters += containers.map { "\($0.property): \($0.type)" + ($0.isOptional ? " = nil" : "") }
                parameters += typeCases.map { "\($0.property): \($0.name)? = nil" }
                swift.line()
                swift.block("public init(\(parameters.joined(separator: ", ")))") { swift in
                    if hasTypename { swift.line("self.__typename = __typename") }
                    for property in stored { swift.line("self.\(property.name) = \(property.name)") }
                    if scope.hasFragments {
                        let arguments = containers.map { "\($0.property): \($0.property)" }
                        swift.line("self.fragments = Fragments(\(arguments.joined(separator: ", ")))")
                    }
                    for typeCase in typeCases { swift.line("self.\(typeCase.property) = \(typeCase.property)") }
                }
            }

            // Decoding, straight from the engine's values.
            swift.line()
            swift.block("public init<Source: ResponseData>(response data: Source) throws(ResponseDecodingError)") { swift in
                if hasTypename {
                    let position = positions["__typename"] ?? 0
                    swift.line(concrete.map { "self.__typename = try data.field(\"__typename\", at: \(position)) ?? \"\($0)\"" }
                               ?? "self.__typename = try data.typename()")
                }
                for property in stored {
                    swift.line("self.\(property.name) = try data.field(\"\(property.responseKey)\", at: \(positions[property.responseKey] ?? 0))")
                }
                // What `@include` / `@skip` bring in is decided by the operation's variables,
                // a deferred part by whether the data has it yet, as Apollo iOS decides them.
                if scope.hasFragments {
                    let arguments = spreads.map { spread in
                        let value = if spread.fragment.isDeferred {
                            "data.deferred(selecting: \(Self.literal(fragments[spread.fragment.name].map { selecting(rootScope(of: $0), beyond: scope) } ?? [])))"
                        } else if spread.fragment.conditions.isEmpty {
                            "\(spread.type)(response: data)"
                        } else {
                            "data.included(if: \(spread.fragment.conditions.map(Self.literal).joined(separator: ", ")))"
                        }
                        return "\(spread.property): try \(value)"
                    } + deferredParts.map { "\($0.property): try data.deferred(selecting: \(Self.literal(selecting($0.scope, beyond: scope))))" }
                    swift.line("self.fragments = Fragments(\(arguments.joined(separator: ", ")))")
                }
                for typeCase in typeCases {
                    let conditions = typeCase.typeCase.conditions
                    let call = switch (typeCase.typeCase.type, conditions.isEmpty) {
                    case (nil, _): "included(if: \(Self.literal(conditions)))"
                    case (_, true): "typeCase(\(Self.literal(typeCase.scope.possibleTypes.sorted())))"
                    case (_, false): "typeCase(\(Self.literal(typeCase.scope.possibleTypes.sorted())), if: \(Self.literal(conditions)))"
                    }
                    swift.line("self.\(typeCase.property) = try data.\(call)")
                }
            }

            // Back to data: the fields in selection order, then the fragments' and type cases'.
            swift.line()
            // A field that may have been left out is left out when nil: a type case of its
            // condition, when set, puts it back (null where it was), so the data reads the same.
            var members = hasTypename ? ["\"__typename\": .string(__typename)"] : []
            members += stored.map { "\"\($0.responseKey)\": \($0.name)" + ($0.isConditional ? ".map { $0.jsonValue }" : ".jsonValue") }
            let object = stored.contains(where: \.isConditional) ? "JSONValue.input" : "JSONValue.object"
            var parts = ["\(object)([\(members.isEmpty ? ":" : members.joined(separator: ", "))])"]
            parts += containers.map { "fragments.\($0.property)" + ($0.isOptional ? "?.jsonValue ?? .object([])" : ".jsonValue") }
            parts += typeCases.map { "\($0.property)?.jsonValue ?? .object([])" }
            // A mutable one's own fields win whole: its fragments and type cases, as read,
            // only add the fields it does not have.
            let merged = mutable ? ".merging(\(parts[0]), newMembersOf: [\(parts.dropFirst().joined(separator: ", "))])"
                                 : ".merging([\(parts.joined(separator: ", "))])"
            swift.line("public var jsonValue: JSONValue { " + (parts.count == 1 ? parts[0] : merged) + " }")

            if scope.hasFragments {
                swift.line()
                swift.block("public struct Fragments: Hashable, Sendable") { swift in
                    // A deferred part is `@Deferred`, as in Apollo iOS: `$deferredCat` is its state.
                    for container in containers {
                        swift.line((container.isDeferred ? "@Deferred public var " : "public let ") + "\(container.property): \(container.type)")
                    }
                    let parameters = containers.map { "\($0.property): \($0.type)" + ($0.isOptional ? " = nil" : "") }
                    swift.block("public init(\(parameters.joined(separator: ", ")))") { swift in
                        for container in containers {
                            swift.line(container.isDeferred ? "self._\(container.property.filter { $0 != "`" }) = Deferred(wrappedValue: \(container.property))"
                                                            : "self.\(container.property) = \(container.property)")
                        }
                    }
                }
            }
            for property in stored {
                guard let nested = property.nested else { continue }
                swift.line()
                try write(nested.name, scope: nested.scope, isRoot: false, conformance: Self.conformance(mutable: mutable), initializers: initializers,
                          mutable: mutable, depth: depth + 1, into: &swift)
            }
            for typeCase in typeCases + deferredParts {
                swift.line()
                try write(typeCase.name, scope: typeCase.scope, isRoot: false, conformance: Self.conformance(mutable: mutable), initializers: initializers,
                          mutable: mutable, depth: depth + 1, into: &swift)
            }
        }
    }

    /// The protocol a selection set type conforms to, mutable or not.
    static func conformance(mutable: Bool) -> String {
        mutable ? "NormAPI.MutableSelectionSet" : "NormAPI.SelectionSet"
    }

    /// What `part`, a deferred part or fragment, selects beyond what `scope` always has: it
    /// has arrived when the data has these (``ResponseData/deferred(selecting:)``).
    private func selecting(_ part: SelectionScope, beyond scope: SelectionScope) -> [String] {
        let always = Set(scope.fields.filter { !$0.isConditional }.map(\.responseKey))
        return part.fields.filter { !$0.isConditional && $0.responseKey != "__typename" && !always.contains($0.responseKey) }.map(\.responseKey)
    }

    /// Swift's literal of `strings`: `["a", "b"]`.
    private static func literal(_ strings: [String]) -> String {
        "[" + strings.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// Where each response key is expected in the data: the order the document selects
    /// them in, `__typename` first below the root (the document the client sends puts it
    /// there when the selection does not ask for it).
    static func positions(in scope: SelectionScope, isRoot: Bool) -> [String: Int] {
        var keys = scope.fields.map(\.responseKey)
        if !isRoot, !keys.contains("__typename") { keys.insert("__typename", at: 0) }
        var positions: [String: Int] = [:]
        for (index, key) in keys.enumerated() where positions[key] == nil { positions[key] = index }
        return positions
    }

    /// The name and Swift type of the property answering `responseKey` in `scope`, with the
    /// scope's own nested types named from outside it (`qualifier.Destination`); `mutable`:
    /// the scope is a local cache mutation's.
    func property(_ responseKey: String, in scope: SelectionScope, mutable: Bool, qualifier: String) -> (name: String, type: String)? {
        guard let property = properties(of: scope, mutable: mutable).first(where: { $0.responseKey == responseKey }) else { return nil }
        guard property.via == nil, let nested = property.nested else { return (property.name, property.type) }
        return (property.name, property.type.replacingOccurrences(of: nested.name, with: qualifier + "." + nested.name))
    }

    /// The properties of `scope` in selection order, `__typename` left to the struct itself;
    /// in a `mutable` scope every field is stored, a fragment's too, so that it can be set.
    private func properties(of scope: SelectionScope, mutable: Bool) -> [Property] {
        // A nested type hides, in every type inside the one it is in, the fragment types and
        // the namespace of the same name, which generated code names unqualified.
        var nestedNames = Set(scope.typeCases.map { $0.name(names.typeName) } + (scope.hasFragments ? ["Fragments"] : [])
                              + fragments.keys.map(SwiftNames.fragmentType) + [names.namespace])
        // The type cases' properties and the fragments' initializer parameters come first.
        var propertyNames = Set(scope.typeCases.map { $0.property(names.typeName) } + scope.fragments.map { SwiftNames.fragmentProperty($0.name) })
        var properties: [Property] = []
        for field in scope.fields where !(field.responseKey == "__typename" && field.fieldName == "__typename") {
            let name = names.property(field.responseKey, avoiding: propertyNames)
            propertyNames.insert(name)
            let description = schema.fieldDescription(field.fieldName, of: field.parentType)
            // A field from one fragment alone reads the fragment's, when the fragment's own
            // type has it (not only a type case of the fragment's).
            if !mutable, let via = field.onlyVia, let fragment = fragments[via],
               let read = property(field.responseKey, in: rootScope(of: fragment), mutable: LocalCacheMutationDirective.marks(fragment.directives),
                                   qualifier: SwiftNames.fragmentType(via)) {
                properties.append(Property(name: name, responseKey: field.responseKey, type: read.type, description: description,
                                           via: via, nested: nil, fragmentName: read.name))
                continue
            }
            let shape = TypeShape(field.type)
            var nested: (name: String, scope: SelectionScope)?
            let base: String
            if shape.named is GraphQLCompositeType {
                var nestedName = SwiftNames.nestedType(field.responseKey, isList: shape.isList)
                if nestedNames.contains(nestedName) { nestedName = SwiftNames.nestedType(field.responseKey, isList: false) }
                while nestedNames.contains(nestedName) { nestedName += "_" }
                nestedNames.insert(nestedName)
                nested = (nestedName, SelectionScope(type: shape.named.name, items: field.subselections, opening: field.occurrences.first?.field,
                                                     schema: schema, fragments: fragments))
                base = nestedName
            } else {
                base = names.swiftType(of: shape.named)
            }
            properties.append(Property(name: name, responseKey: field.responseKey, type: shape.swift(base, optional: field.isConditional),
                                       description: description, via: nil, nested: nested, isConditional: field.isConditional))
        }
        return properties
    }

    /// The scope of a fragment's own type.
    func rootScope(of fragment: FragmentDefinition) -> SelectionScope {
        SelectionScope(type: fragment.typeCondition.name.value,
                       items: fragment.selectionSet.selections.map { SelectionItem(selection: $0, via: nil) },
                       schema: schema, fragments: fragments)
    }
}
