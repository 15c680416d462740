import Foundation
import GraphQL

/// Turns GraphQL text into a ``CompiledOperation``: parses it with GraphQLSwift, picks the
/// operation, inlines fragments as guards on their fields, merges fields that share a
/// response key, and adds `__typename` to every selection set below the root.
package enum OperationCompiler {
    /// Deeper nesting of braces, brackets and parentheses is refused before parsing, so
    /// a hostile document cannot exhaust the parser's stack; so are selections nested
    /// deeper through fragment spreads.

    static func compile(_ source: String, name: String?) throws(OperationError) -> CompiledOperation {
        try GraphQLParserGuard.check(source)
        let document: Document
        do {
            document = try parse(source: source)
        } catch let error as GraphQLError {
            let location = error.locations.first
            throw OperationError(syntaxMessage(error.message), line: location?.line, column: location?.column)
        } catch {
            throw OperationError("\(error)")
        }
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                operations.append(operation)
            } else if let fragment = definition as? FragmentDefinition {
                if fragments[fragment.name.value] != nil {
                    throw error("fragment \"\(fragment.name.value)\" is defined twice", at: fragment.loc)
                }
                fragments[fragment.name.value] = fragment
            } else {
                throw error("a schema definition is not an operation", at: nil)
            }
        }
        let operation: OperationDefinition
        if let name {
            guard let named = operations.first(where: { $0.name?.value == name }) else {
                throw OperationError("the document has no operation named \"\(name)\"")
            }
            operation = named
        } else {
            guard operations.count == 1 else {
                throw OperationError(operations.isEmpty
                    ? "the document has no operation"
                    : "the document has \(operations.count) operations; say which one to run by name")
            }
            operation = operations[0]
        }
        let variables = try declaredVariables(operation.variableDefinitions)
        var builder = Builder(fragments: fragments, declared: Set(variables.map(\.name)))
        let raw = try builder.collect(operation.selectionSet, guards: Guards(), path: [])
        let plan = try builder.finish(raw, addTypename: false)
        return CompiledOperation(name: operation.name?.value, kind: CompiledOperation.Kind(operation.operation),
                         isLocalCacheMutation: LocalCacheMutationDirective.marks(operation.directives),
                         variables: variables, source: source,
                         networkDocument: networkDocument(document, source: source), selections: plan, fieldCount: builder.fieldCount,
                         objectTypeConditions: builder.objectTypeConditions)
    }

    /// The operation's variables, each declared once, with defaults its type accepts.
    static func declaredVariables(_ definitions: [VariableDefinition]) throws(OperationError) -> [CompiledOperation.Variable] {
        var variables: [CompiledOperation.Variable] = []
        for definition in definitions {
            let name = definition.variable.name.value
            guard !variables.contains(where: { $0.name == name }) else { throw error("$\(name) is declared twice", at: definition.loc) }
            let type = TypeReference(definition.type)
            var defaultValue: CacheValue?
            if let literal = definition.defaultValue {
                let value = try constant(literal, what: "the default of $\(name)")
                do { defaultValue = try VariableCoercion.coerce(value, to: type, schema: PossibleTypes()) } catch let failure {
                    throw error("the default of $\(name)\(failure.path): \(failure.problem)", at: literal.loc)
                }
            }
            variables.append(CompiledOperation.Variable(name: name, type: type, defaultValue: defaultValue))
        }
        return variables
    }

    /// The parser's message without its decorations: "Syntax Error GraphQL (1:11) Expected
    /// Name, found }" and the source excerpt after it become "Expected Name, found }"
    /// (the line and column are reported apart).
    static func syntaxMessage(_ message: String) -> String {
        var text = message.prefix { $0 != "\n" }
        for prefix in ["Syntax Error: ", "Syntax Error "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        if text.hasPrefix("GraphQL ("), let close = text.firstIndex(of: ")") { text = text[text.index(after: close)...].drop { $0 == " " } }
        return String(text)
    }

    /// `source` with ` __typename` after the `{` of every selection set below the operations'
    /// roots that does not select it already, so every object in the response says its type,
    /// and without Apollo iOS's client-only directives (`@apollo_client_ios_localCacheMutation`,
    /// `@import`), which a server does not know: the document a server gets, as Apollo's
    /// codegen writes it.
    package static func networkDocument(_ document: Document, source: String) -> String {
        var bytes = Array(source.utf8)
        var edits: [(bytes: Range<Int>, text: String)] = []
        func visit(_ set: SelectionSet, isRoot: Bool) {
            let hasTypename = set.selections.contains { ($0 as? Field)?.name.value == "__typename" && ($0 as? Field)?.alias == nil }
            // A selection set's place starts at its `{`.
            if !isRoot, !hasTypename, let start = set.loc?.start { edits.append((start + 1 ..< start + 1, " __typename")) }
            for selection in set.selections {
                if let field = selection as? Field, let child = field.selectionSet { visit(child, isRoot: false) }
                if let inline = selection as? InlineFragment { visit(inline.selectionSet, isRoot: true) }
            }
        }
        func strip(_ directives: [Directive]) {
            for directive in directives where clientOnlyDirectives.contains(directive.name.value) {
                guard let start = directive.loc?.startToken, let last = lastToken(ofDirectiveAt: start) else { continue }
                // With the blanks after it, so `query Q @import(module: "M") {` reads `query Q {`.
                let end = bytes[last.end...].firstIndex { !" \t\r\n,".utf8.contains($0) } ?? bytes.count
                edits.append((start.start ..< end, ""))
            }
        }
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                strip(operation.directives)
                visit(operation.selectionSet, isRoot: true)
            }
            if let fragment = definition as? FragmentDefinition {
                strip(fragment.directives)
                visit(fragment.selectionSet, isRoot: false)
            }
        }
        // From the end, so each edit leaves the offsets before it as they were.
        for edit in edits.sorted(by: { $0.bytes.lowerBound > $1.bytes.lowerBound }) where edit.bytes.upperBound <= bytes.count {
            bytes.replaceSubrange(edit.bytes, with: edit.text.utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The last token of the directive whose `@` is `start`: its name, or the `)`
    /// closing its arguments. (GraphQLSwift places a directive's end after its `@`.)
    private static func lastToken(ofDirectiveAt start: Token) -> Token? {
        guard let name = start.next, name.kind == .name else { return nil }
        guard var token = name.next, token.kind == .openingParenthesis else { return name }
        while token.kind != .closingParenthesis {
            guard let next = token.next, next.kind != .eof else { return nil }
            token = next
        }
        return token
    }

    /// Apollo iOS's directives that only its codegen reads (apollo-ios-codegen strips them
    /// from the document it sends).
    static let clientOnlyDirectives: Set<String> = [LocalCacheMutationDirective.name, "import"]

    static func error(_ message: String, at location: Location?) -> OperationError {
        OperationError(message, line: location?.startToken.line, column: location?.startToken.column)
    }

    /// A literal without variables, as a JSON value (variable defaults).
    static func constant(_ value: any GraphQL.Value, what: String) throws(OperationError) -> CacheValue {
        switch value {
        case let int as IntValue:
            guard let number = Int64(int.value) else { throw error("\(what): \(int.value) does not fit in 64 bits", at: int.loc) }
            return .int(number)
        case let float as FloatValue:
            guard let number = Double(float.value) else { throw error("\(what): bad float \(float.value)", at: float.loc) }
            return .double(number)
        case let string as StringValue: return .string(string.value)
        case let bool as BooleanValue: return .bool(bool.value)
        case is NullValue: return .null
        case let enumValue as EnumValue: return .string(enumValue.value)
        case let list as ListValue:
            var items: [CacheValue] = []
            for item in list.values { items.append(try constant(item, what: what)) }
            return .list(items)
        case let object as ObjectValue:
            var result = CacheObject()
            for field in object.fields { result[field.name.value] = try constant(field.value, what: what) }
            return .object(result)
        case let variable as GraphQL.Variable:
            throw error("\(what) cannot use the variable $\(variable.name.value)", at: variable.loc)
        default:
            throw OperationError("\(what): unsupported value")
        }
    }

    /// The fragments' type conditions and directives that lead to a field.
    struct Guards: Equatable {
        var typeConditions: [String] = []
        var conditions: [FieldPlan.Condition] = []
        var deferrals: [FieldPlan.Deferral] = []
    }

    /// A field before merging.
    final class RawField {
        let responseKey: String
        let name: String
        let arguments: [(name: String, value: ArgumentTemplate)]
        let argumentText: String
        let guards: Guards
        var children: [RawField]?
        let location: Location?

        init(responseKey: String, name: String, arguments: [(name: String, value: ArgumentTemplate)], argumentText: String,
             guards: Guards, children: [RawField]?, location: Location?) {
            self.responseKey = responseKey
            self.name = name
            self.arguments = arguments
            self.argumentText = argumentText
            self.guards = guards
            self.children = children
            self.location = location
        }
    }

    struct Builder {
        let fragments: [String: FragmentDefinition]
        /// The operation's variables: a document may use no others.
        let declared: Set<String>
        var fieldCount = 0
        /// How many `@defer`s were met: each fragment's has its own number.
        var deferralCount = 0
        /// Type conditions the document shows to be object types (``CompiledOperation/objectTypeConditions``).
        var objectTypeConditions: Set<String> = []
        /// Selection sets being collected, fragments' included: spreads nest selections that
        /// the brace count of each definition does not see, so the depth is checked here too.
        private var depth = 0

        init(fragments: [String: FragmentDefinition], declared: Set<String>) {
            self.fragments = fragments
            self.declared = declared
        }

        /// Every field of a selection set, fragments inlined, in document order.
        mutating func collect(_ set: SelectionSet, guards: Guards, path: [String]) throws(OperationError) -> [RawField] {
            depth += 1
            defer { depth -= 1 }
            if depth > GraphQLParserGuard.maxNesting {
                throw OperationCompiler.error("selections nest deeper than \(GraphQLParserGuard.maxNesting) levels through fragment spreads", at: set.loc)
            }
            var fields: [RawField] = []
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    var fieldGuards = guards
                    fieldGuards.conditions += try conditions(field.directives)
                    let arguments = try field.arguments.map { argument throws(OperationError) in
                        (name: argument.name.value, value: try template(argument.value))
                    }
                    let children = try field.selectionSet.map { sub throws(OperationError) in
                        try collect(sub, guards: Guards(), path: path)
                    }
                    fields.append(RawField(
                        responseKey: field.alias?.value ?? field.name.value, name: field.name.value, arguments: arguments,
                        argumentText: field.arguments.map { "\($0.name.value):\(GraphQL.print(ast: $0.value))" }.sorted().joined(separator: ","),
                        guards: fieldGuards, children: children, location: field.loc))
                case let inline as InlineFragment:
                    var inner = guards
                    if let condition = inline.typeCondition?.name.value, !inner.typeConditions.contains(condition) {
                        inner.typeConditions.append(condition)
                    }
                    inner.conditions += try conditions(inline.directives)
                    inner.deferrals += try deferrals(inline.directives)
                    fields += try collect(inline.selectionSet, guards: inner, path: path)
                case let spread as FragmentSpread:
                    let name = spread.name.value
                    guard let fragment = fragments[name] else {
                        throw OperationCompiler.error("unknown fragment \"\(name)\"", at: spread.loc)
                    }
                    if path.contains(name) {
                        throw OperationCompiler.error("fragment \"\(name)\" spreads itself (\((path + [name]).joined(separator: " → ")))", at: spread.loc)
                    }
                    var inner = guards
                    let condition = fragment.typeCondition.name.value
                    if !inner.typeConditions.contains(condition) { inner.typeConditions.append(condition) }
                    inner.conditions += try conditions(spread.directives)
                    inner.deferrals += try deferrals(spread.directives)
                    fields += try collect(fragment.selectionSet, guards: inner, path: path + [name])
                default:
                    throw OperationError("unsupported selection")
                }
            }
            return fields
        }

        /// Merges fields with one response key and the same guards (their sub-selections
        /// combine), refuses conflicting ones, and numbers the result.
        mutating func finish(_ raw: [RawField], addTypename: Bool) throws(OperationError) -> SelectionPlan {
            var merged: [RawField] = []
            for field in raw {
                if let same = merged.first(where: { $0.responseKey == field.responseKey && $0.guards == field.guards }) {
                    guard same.name == field.name, same.argumentText == field.argumentText else {
                        throw OperationCompiler.error(
                            "fields \"\(field.responseKey)\" conflict: \(same.name)(\(same.argumentText)) and \(field.name)(\(field.argumentText)); use different aliases",
                            at: field.location)
                    }
                    if let children = field.children { same.children = (same.children ?? []) + children }
                } else {
                    merged.append(field)
                }
            }
            noteObjectTypeConditions(of: merged)
            if addTypename, !merged.contains(where: { $0.responseKey == "__typename" && $0.guards == Guards() }) {
                merged.insert(RawField(responseKey: "__typename", name: "__typename", arguments: [], argumentText: "",
                                       guards: Guards(), children: nil, location: nil), at: 0)
            }
            var fields: [FieldPlan] = []
            for field in merged {
                let children = try field.children.map { children throws(OperationError) in try finish(children, addTypename: true) }
                let staticKey: String?
                if field.arguments.isEmpty {
                    staticKey = field.name
                } else if field.arguments.contains(where: { $0.value.hasVariables }) {
                    staticKey = nil
                } else {
                    var literal: [String: ArgumentValue] = [:]
                    for argument in field.arguments {
                        literal[argument.name] = argument.value.resolve(with: CacheObject())
                    }
                    do { staticKey = try KeyBuilder().fieldKey(field.name, arguments: literal) }
                    catch { throw OperationCompiler.error("\(error)", at: field.location) }
                }
                fields.append(FieldPlan(index: fieldCount, responseKey: field.responseKey, name: field.name,
                                        arguments: field.arguments, staticKey: staticKey,
                                        typeConditions: field.guards.typeConditions, conditions: field.guards.conditions,
                                        deferrals: field.guards.deferrals, selections: children))
                fieldCount += 1
            }
            return SelectionPlan(fields: fields)
        }

        /// GraphQL's validation (OverlappingFieldsCanBeMerged) lets one response key of a
        /// selection set name different fields or arguments only under two cases whose parent
        /// types are different object types, which no object satisfies both of
        /// (`... on Human { property: name } ... on Droid { property: primaryFunction }`). So
        /// when two fields of one response key under different innermost type conditions
        /// conflict, each condition is an object type. (A field without a condition has the
        /// selection's own type as its parent: then the other condition alone is known.)
        private mutating func noteObjectTypeConditions(of fields: [RawField]) {
            for (i, a) in fields.enumerated() {
                for b in fields[(i + 1)...] where b.responseKey == a.responseKey
                    && b.guards.typeConditions.last != a.guards.typeConditions.last && Self.conflict(a, b) {
                    for condition in [a.guards.typeConditions.last, b.guards.typeConditions.last].compactMap({ $0 }) {
                        objectTypeConditions.insert(condition)
                    }
                }
            }
        }

        /// Whether two fields of one response key could not be merged if their parents were
        /// one type: other names or arguments, or such a conflict among their sub-fields of one
        /// response key and one parent (`friend { height(unit: FOOT) }` and
        /// `friend { height(unit: METER) }`).
        private static func conflict(_ a: RawField, _ b: RawField) -> Bool {
            if a.name != b.name || a.argumentText != b.argumentText { return true }
            guard let left = a.children, let right = b.children else { return false }
            return left.contains { x in
                right.contains { y in
                    x.responseKey == y.responseKey && x.guards.typeConditions.last == y.guards.typeConditions.last && conflict(x, y)
                }
            }
        }

        private func conditions(_ directives: [Directive]) throws(OperationError) -> [FieldPlan.Condition] {
            var result: [FieldPlan.Condition] = []
            for directive in directives {
                let include: Bool
                switch directive.name.value {
                case "include": include = true
                case "skip": include = false
                default: continue
                }
                guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else {
                    throw OperationCompiler.error("@\(directive.name.value) needs an \"if\" argument", at: directive.loc)
                }
                switch argument.value {
                case let bool as BooleanValue: result.append(.init(include: include, value: .literal(bool.value)))
                case let variable as GraphQL.Variable: result.append(.init(include: include, value: .variable(try declaredName(variable))))
                default:
                    throw OperationCompiler.error("@\(directive.name.value)(if:) takes a Boolean or a variable", at: argument.loc)
                }
            }
            return result
        }

        /// A fragment's `@defer(label:if:)`, unless `if: false` turns it off: its fields come
        /// in a later part of the response.
        private mutating func deferrals(_ directives: [Directive]) throws(OperationError) -> [FieldPlan.Deferral] {
            guard let directive = directives.first(where: { $0.name.value == "defer" }) else { return [] }
            var label: String?
            var condition: FieldPlan.Condition?
            for argument in directive.arguments {
                switch (argument.name.value, argument.value) {
                case ("label", let text as StringValue): label = text.value
                case ("if", let bool as BooleanValue):
                    guard bool.value else { return [] }
                case ("if", let variable as GraphQL.Variable): condition = .init(include: true, value: .variable(try declaredName(variable)))
                case ("label", _): throw OperationCompiler.error("@defer(label:) takes a string", at: argument.loc)
                case ("if", _): throw OperationCompiler.error("@defer(if:) takes a Boolean or a variable", at: argument.loc)
                default: throw OperationCompiler.error("@defer has no argument \"\(argument.name.value)\" (label, if)", at: argument.loc)
                }
            }
            deferralCount += 1
            return [FieldPlan.Deferral(number: deferralCount, label: label, condition: condition)]
        }

        /// The name of a variable the operation declares; one it does not is refused.
        private func declaredName(_ variable: GraphQL.Variable) throws(OperationError) -> String {
            let name = variable.name.value
            guard declared.contains(name) else { throw OperationCompiler.error("$\(name) is used but not declared by the operation", at: variable.loc) }
            return name
        }

        private func template(_ value: any GraphQL.Value) throws(OperationError) -> ArgumentTemplate {
            switch value {
            case let variable as GraphQL.Variable: return .variable(try declaredName(variable))
            case let int as IntValue:
                guard let number = Int64(int.value) else {
                    throw OperationCompiler.error("integer \(int.value) does not fit in 64 bits", at: int.loc)
                }
                return .literal(.int(number))
            case let float as FloatValue:
                guard let number = Double(float.value) else { throw OperationCompiler.error("bad float \(float.value)", at: float.loc) }
                return .literal(.float(number))
            case let string as StringValue: return .literal(.string(string.value))
            case let bool as BooleanValue: return .literal(.bool(bool.value))
            case is NullValue: return .literal(.null)
            case let enumValue as EnumValue: return .literal(.string(enumValue.value))
            case let list as ListValue:
                var items: [ArgumentTemplate] = []
                for item in list.values { items.append(try template(item)) }
                return .list(items)
            case let object as ObjectValue:
                var fields: [(name: String, value: ArgumentTemplate)] = []
                for field in object.fields { fields.append((field.name.value, try template(field.value))) }
                return .object(fields)
            default:
                throw OperationError("unsupported argument value")
            }
        }
    }
}

extension ArgumentTemplate {
    /// The argument's value with `variables` substituted; `nil` when it is a variable
    /// that was not given (the argument is then left out of the key, as Apollo does).
    /// The variables are coerced already (``VariableCoercion``): a `Float` given as `30`
    /// is the double `30.0` by now, so it is keyed `30.0`.
    func resolve(with variables: CacheObject) -> ArgumentValue? {
        switch self {
        case .literal(let value): return value
        case .variable(let name): return variables[name].map(ArgumentValue.init)
        case .list(let items): return .list(items.map { $0.resolve(with: variables) ?? .null })
        case .object(let fields):
            var object: [String: ArgumentValue] = [:]
            for field in fields { object[field.name] = field.value.resolve(with: variables) }
            return .object(object)
        }
    }
}

extension ArgumentValue {
    /// A JSON value as an argument, typed as JSON types it.
    init(_ value: CacheValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .int(let int): self = .int(int)
        case .double(let double): self = .float(double)
        case .string(let string), .reference(let string): self = .string(string)
        case .list(let items): self = .list(items.map { ArgumentValue($0) })
        case .object(let object):
            var fields: [String: ArgumentValue] = [:]
            for (key, value) in object.members { fields[key] = ArgumentValue(value) }
            self = .object(fields)
        }
    }
}
