import GraphQL

/// One selection to collect into a scope, with where it came from.
struct SelectionItem {
    let selection: any Selection
    /// The fragment spread at the scope's own level that the selection came through; nil
    /// for a selection written in the scope itself.
    let via: String?
}

/// A type case of a scope: a narrower type (`AsCat`), an `@include` / `@skip` condition
/// (`IfIncludeDetails`, `IfNotSkipHeight`), or both (`AsCatIfGetCat`), named as Apollo iOS
/// names it; or a deferred part (`DeferredCat`, of `... @defer(label: "deferredCat")`).
struct TypeCase: Hashable {
    /// The narrower type; nil for a condition alone.
    let type: String?
    /// The variables of its `@include`s as written, of its `@skip`s with `!` before them.
    let conditions: [String]
    /// The label of the deferred inline fragment it is the part of, named after it, with no
    /// type or conditions of its own (a type case of them holds it); empty when the document
    /// gives none. Nil for a type case.
    var deferredLabel: String? = nil

    /// Its Swift type's name, `typeName` naming the schema's type in Swift.
    func name(_ typeName: (String) -> String) -> String {
        if let deferredLabel { return SwiftNames.firstUppercased(deferredLabel) }
        let ifs = conditions.map { $0.hasPrefix("!") ? "Not" + SwiftNames.firstUppercased($0.dropFirst()) : SwiftNames.firstUppercased($0) }
        return (type.map { "As" + typeName($0) } ?? "") + (ifs.isEmpty ? "" : "If" + ifs.joined(separator: "And"))
    }

    /// Its property's name (`asCatIfGetCat`; a deferred part's is under `fragments`).
    func property(_ typeName: (String) -> String) -> String { SwiftNames.escaped(SwiftNames.firstLowercased(name(typeName))) }
}

/// A fragment spread at a scope's own level, under its `fragments`: always there, or
/// optional (`fragments.heightInMeters?`) when spread only under `@include` / `@skip`
/// conditions the scope is not under, or under `@defer`, as Apollo iOS has it.
struct ScopeFragment: Equatable {
    let name: String
    /// The conditions (``TypeCase/conditions``) of each spread of it, of which any one
    /// suffices; empty when it is always there.
    var conditions: [[String]] = []
    /// Spread under `@defer`: there once its part has arrived.
    var isDeferred = false

    var isOptional: Bool { !conditions.isEmpty || isDeferred }
}

/// A field of a scope: every occurrence of one response key, merged, as GraphQL merges
/// them (CollectFields).
struct ScopeField {
    struct Occurrence {
        let field: Field
        let via: String?
        /// Under `@include` / `@skip` conditions of its own that the scope is not under.
        let conditional: Bool
    }

    let responseKey: String
    let fieldName: String
    /// The type the field is first written on, which defines it.
    let parentType: String
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
        occurrences.flatMap { occurrence in (occurrence.field.selectionSet?.selections ?? []).map { SelectionItem(selection: $0, via: nil) } }
    }
}

/// The selections that apply to one object of a known type, merged: its fields, the
/// fragments spread on it (`fragments`), and type cases for narrower types (`asStation`).
/// Built the same way for an operation's `Data`, a fragment, a field's object and a type case.
///
/// Fields and fragments come from every selection on the object whose type condition is
/// one of the scope's matching types, wherever it is written (a type case `AsCat` has the
/// fields of `... on Pet` beside it, as a cat is declared a pet). As in Apollo iOS, the
/// declarations decide, not today's members: `... on Reactable` on a union all of whose
/// members are reactable is still the type case `asReactable`, so a member the server adds
/// later decodes with `asReactable` nil. Type cases come only from where they are written:
/// a type case has as its own type cases those written inside it, never its siblings, so
/// `... on A { a } ... on B { b }` on interfaces that partly overlap is `asA` and `asB`
/// side by side, each its own fields. Every type case is written deeper in the document,
/// so nesting ends.
///
/// Conditions work as in Apollo iOS: a literal `@include(if: false)` or `@skip(if: true)`
/// is never selected, a literal true condition is none; an inline fragment or spread under
/// `@include` / `@skip` on variables is its condition's type case (`ifX`), and its fields
/// are that type case's alone (a spread whose type holds is also an optional
/// `fragments.x`); a field under its own condition is optional where it is. A deferred
/// inline fragment (`@defer`, without `if: false`) is its deferred part (a type case
/// named after its label, under `fragments`), a deferred spread an optional `fragments.x`:
/// neither's fields are the scope's.
///
/// ```swift
/// let scope = SelectionScope(type: "JourneyEndpoint", items: items, schema: schema, fragments: fragments)
/// scope.typeCases.map(\.type)   // ["Station", "Airport"]
/// ```
struct SelectionScope {
    let typeName: String
    /// The object types a value of the scope may be: its type's, narrowed by each type case
    /// on the way to it (`AsPet.AsWarmBlooded` is a pet and warm-blooded).
    let possibleTypes: Set<String>
    /// The types a selection may be conditioned on and be the scope's own: those its type
    /// and each type case on the way to it are declared to be (``SchemaTypes/matchingTypes(of:)``).
    let matchingTypes: Set<String>
    /// The `@include` / `@skip` conditions (``TypeCase/conditions``) of the type cases on the
    /// way to the scope: a selection under only these is the scope's own, not optional.
    let matchingConditions: Set<String>
    /// The labels of the deferred parts the scope is (itself or on the way to it): their
    /// inline fragments' fields are its own.
    let matchingDeferred: Set<String>
    /// Every selection on the object, for its fields and fragments.
    let items: [SelectionItem]
    /// The type `items` are written on: the operation's root, the fragment's or the field's
    /// type, whose fields they name (a type case's own type may be a union, with none).
    let itemsType: String
    /// The selection the scope's type is opened by (a field, an inline fragment, a spread);
    /// nil for an operation's or a fragment's own.
    let opening: (any Selection)?
    private(set) var fields: [ScopeField] = []
    /// Fragments spread in the scope whose type holds for it, in order.
    private(set) var fragments: [ScopeFragment] = []
    /// The narrower types and `@include` / `@skip` conditions that selections written in
    /// the scope are under, and its deferred parts, in order of first appearance.
    private(set) var typeCases: [TypeCase] = []
    /// Whether the scope's type has `fragments`: spread fragments, or deferred parts.
    var hasFragments: Bool { !fragments.isEmpty || typeCases.contains { $0.deferredLabel != nil } }
    /// The first selection written for each type case, and the selections written in it:
    /// where its own type cases come from.
    private var typeCaseSelections: [TypeCase: (opening: any Selection, written: [any Selection])] = [:]
    private var fieldIndex: [String: Int] = [:]
    /// The fragments whose fields the scope always has, spread at any depth: one of them
    /// under `fragments` is always there, whatever else spreads it.
    private var alwaysSpread: Set<String> = []
    private let schema: SchemaTypes
    private let definitions: [String: FragmentDefinition]

    /// The scope of an operation's root, a fragment's own type, or a field's object.
    init(type typeName: String, items: [SelectionItem], opening: (any Selection)? = nil, schema: SchemaTypes,
         fragments definitions: [String: FragmentDefinition]) {
        self.init(type: typeName, possibleTypes: schema.possibleTypes(of: typeName), matchingTypes: schema.matchingTypes(of: typeName),
                  matchingConditions: [], matchingDeferred: [], items: items, itemsType: typeName,
                  written: items.map(\.selection), opening: opening, schema: schema, fragments: definitions)
    }

    private init(type typeName: String, possibleTypes: Set<String>, matchingTypes: Set<String>, matchingConditions: Set<String>,
                 matchingDeferred: Set<String>, items: [SelectionItem], itemsType: String, written: [any Selection],
                 opening: (any Selection)?, schema: SchemaTypes, fragments definitions: [String: FragmentDefinition]) {
        self.typeName = typeName
        self.possibleTypes = possibleTypes
        self.matchingTypes = matchingTypes
        self.matchingConditions = matchingConditions
        self.matchingDeferred = matchingDeferred
        self.items = items
        self.itemsType = itemsType
        self.opening = opening
        self.schema = schema
        self.definitions = definitions
        collectFields(items, on: itemsType)
        for index in fragments.indices where alwaysSpread.contains(fragments[index].name) { fragments[index] = ScopeFragment(name: fragments[index].name) }
        collectTypeCases(written)
    }

    /// The scope of `typeCase`: the same selections, for the narrower types, under its
    /// conditions, or with its deferred part.
    func typeCase(_ typeCase: TypeCase) -> SelectionScope {
        let selections = typeCaseSelections[typeCase]
        return SelectionScope(type: typeCase.type ?? typeName,
                              possibleTypes: typeCase.type.map { possibleTypes.intersection(schema.possibleTypes(of: $0)) } ?? possibleTypes,
                              matchingTypes: typeCase.type.map { matchingTypes.union(schema.matchingTypes(of: $0)) } ?? matchingTypes,
                              matchingConditions: matchingConditions.union(typeCase.conditions),
                              matchingDeferred: matchingDeferred.union(typeCase.deferredLabel.map { [$0] } ?? []), items: items, itemsType: itemsType,
                              written: selections?.written ?? [], opening: selections?.opening, schema: schema, fragments: definitions)
    }

    /// How a selection conditioned on a type (nil: none) relates to the scope.
    private enum Condition {
        /// The scope is declared to be of its type: its selections are the scope's own.
        case holds
        /// Some possible types may be of it: a type case.
        case narrows(String)
        /// No possible type is of it: its selections never apply.
        case never
    }

    private func condition(_ typeName: String?) -> Condition {
        guard let typeName, !matchingTypes.contains(typeName) else { return .holds }
        return possibleTypes.isDisjoint(with: schema.possibleTypes(of: typeName)) ? .never : .narrows(typeName)
    }

    /// The fields and fragments of every selection that applies to the whole scope.
    /// `parent`: the type the selections are written on (a fragment's or inline fragment's
    /// condition), whose fields they name.
    private mutating func collectFields(_ items: [SelectionItem], on parent: String) {
        for item in items where !Self.isNeverSelected(item.selection) {
            // The `@include` / `@skip` conditions the scope is not under.
            let unmet = Self.inclusionConditions(of: item.selection).filter { !matchingConditions.contains($0) }
            switch item.selection {
            case let field as Field:
                let key = field.alias?.value ?? field.name.value
                let occurrence = ScopeField.Occurrence(field: field, via: item.via, conditional: !unmet.isEmpty)
                if let index = fieldIndex[key] {
                    fields[index].occurrences.append(occurrence)
                } else if let type = schema.fieldType(field.name.value, of: parent) {
                    fieldIndex[key] = fields.count
                    fields.append(ScopeField(responseKey: key, fieldName: field.name.value, parentType: parent, type: type, occurrences: [occurrence]))
                }
            case let inline as InlineFragment:
                // Under unmet conditions or deferred, its fields are its type case's or part's.
                guard unmet.isEmpty, Self.deferredLabel(of: inline).map(matchingDeferred.contains) ?? true,
                      case .holds = condition(inline.typeCondition?.name.value) else { continue }
                collectFields(inline.selectionSet.selections.map { SelectionItem(selection: $0, via: item.via) },
                              on: inline.typeCondition?.name.value ?? parent)
            case let spread as FragmentSpread:
                guard let fragment = definitions[spread.name.value], case .holds = condition(fragment.typeCondition.name.value) else { continue }
                let isDeferred = Self.deferredLabel(of: spread) != nil
                // At the scope's own level it is under `fragments` (one both deferred and under
                // unmet conditions is only its type case's, as in Apollo iOS).
                if item.via == nil, unmet.isEmpty || !isDeferred {
                    add(ScopeFragment(name: spread.name.value, conditions: unmet.isEmpty ? [] : [unmet], isDeferred: isDeferred))
                }
                guard unmet.isEmpty, !isDeferred else { continue }
                alwaysSpread.insert(spread.name.value)
                collectFields(fragment.selectionSet.selections.map { SelectionItem(selection: $0, via: item.via ?? spread.name.value) },
                              on: fragment.typeCondition.name.value)
            default: break
            }
        }
    }

    /// `fragment` under `fragments`, merged with the same fragment spread elsewhere in the
    /// scope: there always when one spread always is, else under any of their conditions.
    private mutating func add(_ fragment: ScopeFragment) {
        guard let index = fragments.firstIndex(where: { $0.name == fragment.name }) else {
            fragments.append(fragment)
            return
        }
        if !fragment.isOptional {
            fragments[index] = fragment
        } else if fragments[index].isOptional {
            fragments[index].conditions += fragment.conditions.filter { !fragments[index].conditions.contains($0) }
            fragments[index].isDeferred = fragments[index].isDeferred || fragment.isDeferred
        }
    }

    /// The type cases of the selections written in the scope: those of an inline fragment
    /// or spread that narrows it or is under conditions it is not; its deferred parts;
    /// those inside one that holds, which is the scope's own.
    private mutating func collectTypeCases(_ written: [any Selection]) {
        for selection in written where !Self.isNeverSelected(selection) {
            let typeName: String?
            let inside: [any Selection]
            switch selection {
            case let inline as InlineFragment:
                typeName = inline.typeCondition?.name.value
                inside = inline.selectionSet.selections
            case let spread as FragmentSpread:
                guard let fragment = definitions[spread.name.value] else { continue }
                typeName = fragment.typeCondition.name.value
                inside = fragment.selectionSet.selections
            default: continue
            }
            let conditions = Self.inclusionConditions(of: selection).filter { !matchingConditions.contains($0) }
            let deferredLabel = Self.deferredLabel(of: selection)
            let typeCase: TypeCase
            switch condition(typeName) {
            case .holds where conditions.isEmpty:
                switch (selection, deferredLabel) {
                case (is InlineFragment, let label?) where !matchingDeferred.contains(label):
                    typeCase = TypeCase(type: nil, conditions: [], deferredLabel: label)
                case (is FragmentSpread, _?):
                    continue   // under `fragments`, deferred
                default:
                    collectTypeCases(inside)
                    continue
                }
            case .holds: typeCase = TypeCase(type: nil, conditions: conditions)
            case .narrows(let narrower): typeCase = TypeCase(type: narrower, conditions: conditions)
            case .never: continue
            }
            if typeCaseSelections[typeCase] == nil {
                typeCases.append(typeCase)
                typeCaseSelections[typeCase] = (selection, [])
            }
            // A spread stays whole: the type case spreads the fragment, whose own type and
            // conditions hold there; so does a deferred inline fragment, whose part is then
            // the type case's. A deferred part has what its inline fragment selects.
            let staysWhole = selection is FragmentSpread || (deferredLabel != nil && typeCase.deferredLabel == nil)
            typeCaseSelections[typeCase]?.written += staysWhole ? [selection] : inside
        }
    }

    /// Whether a literal `@include(if: false)` or `@skip(if: true)` leaves `selection` out
    /// whatever the variables: it is never selected (a literal true condition is none).
    private static func isNeverSelected(_ selection: any Selection) -> Bool {
        directives(of: selection).contains { directive in
            let literal = (directive.arguments.first { $0.name.value == "if" }?.value as? BooleanValue)?.value
            return (directive.name.value == "include" && literal == false) || (directive.name.value == "skip" && literal == true)
        }
    }

    /// The label of the `@defer` on `selection` (empty when it has none); nil when it is not
    /// deferred (no `@defer`, or `if: false`).
    static func deferredLabel(of selection: any Selection) -> String? {
        guard let directive = directives(of: selection).first(where: { $0.name.value == "defer" }),
              (directive.arguments.first { $0.name.value == "if" }?.value as? BooleanValue)?.value != false else { return nil }
        return (directive.arguments.first { $0.name.value == "label" }?.value as? StringValue)?.value ?? ""
    }

    /// The `@include` / `@skip` conditions of `selection` on variables (``TypeCase/conditions``).
    private static func inclusionConditions(of selection: any Selection) -> [String] {
        directives(of: selection).compactMap { directive in
            guard directive.name.value == "include" || directive.name.value == "skip",
                  let variable = directive.arguments.first(where: { $0.name.value == "if" })?.value as? Variable else { return nil }
            return (directive.name.value == "skip" ? "!" : "") + variable.name.value
        }
    }

    private static func directives(of selection: any Selection) -> [Directive] {
        switch selection {
        case let field as Field: field.directives
        case let inline as InlineFragment: inline.directives
        case let spread as FragmentSpread: spread.directives
        default: []
        }
    }
}
