import GraphQL

/// One selection to collect into a scope, with where it came from.
struct SelectionItem {
    let selection: any Selection
    /// The fragment spread at the scope's own level that the selection came through; nil
    /// for a selection written in the scope itself.
    let via: String?
    /// An `@include` or `@skip` on the way may leave it out.
    let conditional: Bool
}

/// A field of a scope: every occurrence of one response key, merged, as GraphQL merges
/// them (CollectFields).
struct ScopeField {
    struct Occurrence {
        let field: Field
        let via: String?
        let conditional: Bool
    }

    let responseKey: String
    let fieldName: String
    let type: GraphQLOutputType
    var occurrences: [Occurrence]

    /// A field every occurrence of which may be left out is optional in Swift.
    var isConditional: Bool { occurrences.allSatisfy(\.conditional) }

    /// The one fragment spread of the scope every occurrence came through: the property
    /// then reads the fragment's (`fragments.tripHeader.name`), as Apollo iOS's merged
    /// fields do. Nil when the field is written in the scope or comes from several.
    var onlyVia: String? {
        guard let first = occurrences.first?.via, occurrences.allSatisfy({ $0.via == first && !$0.conditional }) else { return nil }
        return first
    }

    /// The selections of every occurrence, merged: the nested scope's items.
    var subselections: [SelectionItem] {
        occurrences.flatMap { occurrence in
            (occurrence.field.selectionSet?.selections ?? []).map { SelectionItem(selection: $0, via: nil, conditional: false) }
        }
    }
}

/// The selections that apply to one object of a known type, merged: its fields, the
/// fragments spread on it (`fragments`), and type cases for narrower types (`asStation`).
/// Built the same way for an operation's `Data`, a fragment, a field's object and a type case.
///
/// ```swift
/// let scope = SelectionScope(type: "JourneyEndpoint", items: items, schema: schema, fragments: fragments)
/// scope.typeCases.map(\.condition)   // ["Station", "Airport"]
/// ```
struct SelectionScope {
    let typeName: String
    let items: [SelectionItem]
    private(set) var fields: [ScopeField] = []
    /// Fragments spread in the scope that always apply to it, in order.
    private(set) var fragments: [String] = []
    /// Narrower types that selections are conditioned on, in order of first appearance.
    private(set) var typeCases: [String] = []

    init(type typeName: String, items: [SelectionItem], schema: SchemaTypes, fragments definitions: [String: FragmentDefinition]) {
        self.typeName = typeName
        self.items = items
        let possible = schema.possibleTypes(of: typeName)
        var fieldIndex: [String: Int] = [:]

        // `parent`: the type the selections are written on (a fragment's or inline fragment's
        // condition), whose fields they name.
        func collect(_ items: [SelectionItem], on parent: String) {
            for item in items {
                let conditional = item.conditional || Self.hasInclusionCondition(item.selection)
                switch item.selection {
                case let field as Field:
                    let key = field.alias?.value ?? field.name.value
                    let occurrence = ScopeField.Occurrence(field: field, via: item.via, conditional: conditional)
                    if let index = fieldIndex[key] {
                        fields[index].occurrences.append(occurrence)
                    } else if let type = schema.fieldType(field.name.value, of: parent) ?? schema.fieldType(field.name.value, of: typeName) {
                        fieldIndex[key] = fields.count
                        fields.append(ScopeField(responseKey: key, fieldName: field.name.value, type: type, occurrences: [occurrence]))
                    }
                case let inline as InlineFragment:
                    let condition = inline.typeCondition?.name.value ?? typeName
                    let conditionTypes = schema.possibleTypes(of: condition)
                    if possible.isSubset(of: conditionTypes) {
                        collect(inline.selectionSet.selections.map { SelectionItem(selection: $0, via: item.via, conditional: conditional) }, on: condition)
                    } else if !possible.isDisjoint(with: conditionTypes), !typeCases.contains(condition) {
                        typeCases.append(condition)
                    }
                case let spread as FragmentSpread:
                    guard let fragment = definitions[spread.name.value] else { continue }
                    let condition = fragment.typeCondition.name.value
                    let conditionTypes = schema.possibleTypes(of: condition)
                    if possible.isSubset(of: conditionTypes) {
                        if item.via == nil, !conditional, !fragments.contains(spread.name.value) { fragments.append(spread.name.value) }
                        let via = item.via ?? (conditional ? nil : spread.name.value)
                        collect(fragment.selectionSet.selections.map { SelectionItem(selection: $0, via: via, conditional: conditional) }, on: condition)
                    } else if !possible.isDisjoint(with: conditionTypes), !typeCases.contains(condition) {
                        typeCases.append(condition)
                    }
                default: break
                }
            }
        }
        collect(items, on: typeName)
    }

    /// The scope of type case `condition`: the same selections, for the narrower type.
    func typeCase(_ condition: String, schema: SchemaTypes, fragments: [String: FragmentDefinition]) -> SelectionScope {
        SelectionScope(type: condition, items: items, schema: schema, fragments: fragments)
    }

    private static func hasInclusionCondition(_ selection: any Selection) -> Bool {
        let directives: [Directive] = switch selection {
        case let field as Field: field.directives
        case let inline as InlineFragment: inline.directives
        case let spread as FragmentSpread: spread.directives
        default: []
        }
        return directives.contains { $0.name.value == "include" || $0.name.value == "skip" }
    }
}
