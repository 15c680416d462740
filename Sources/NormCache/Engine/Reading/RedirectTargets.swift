/// The records a field with a field policy names by its arguments: for `trip(id: 3)` under
/// `@fieldPolicy(forField: "trip", keyArgs: "id")`, `Trip:3`; for `trips(ids: [1, 2])`,
/// `Trip:1` and `Trip:2`. Each target comes as the keys it may have: one for an object
/// type, one per key space of the object types of an interface or a union.
///
/// ```swift
/// let targets = try state.schema.redirectTargets(of: field, on: "Query", variables: variables, keys: state.keys)
/// targets?.candidates   // [["Trip:3"]]
/// ```
struct RedirectTargets {
    /// Per object the field returns, in order, the keys its record may have.
    let candidates: [[String]]
    /// Whether the field returns a list (of one target per item of its list argument).
    let isList: Bool
}

extension SchemaContext {
    /// Where `field` of an object of type `parentType` leads by the endpoint's field policy,
    /// with `variables` substituted; `nil` when it leads nowhere: no policy, no schema type
    /// for the field, a key argument absent or not a string or a number, or a list argument
    /// where the field returns one object (and the reverse). The keys are built by `keys`.
    func redirectTargets(of field: FieldPlan, on parentType: String, variables: CacheObject,
                         keys: KeySpace) throws(CacheError) -> RedirectTargets? {
        guard let keyArguments = endpoint?.fieldPolicies[parentType, field.name] else { return nil }
        return try redirectTargets(of: field, on: parentType, keyArguments: keyArguments, variables: variables, keys: keys)
    }

    /// Where `field` would lead under a field policy whose key arguments are `keyArguments`
    /// (``redirectTargets(of:on:variables:keys:)`` with the endpoint's; `.why` tries others).
    func redirectTargets(of field: FieldPlan, on parentType: String, keyArguments: [String], variables: CacheObject,
                         keys: KeySpace) throws(CacheError) -> RedirectTargets? {
        guard let returned = declaredTypes.outputFields(of: parentType)?[field.name],
              let (typename, isList) = Self.objectType(returned) else { return nil }
        let arguments = keys.arguments(of: field, variables: variables)
        // The key values in keyArgs order; the list argument's place holds its items.
        var values: [String] = []
        var listItems: (position: Int, texts: [String])?
        for path in keyArguments {
            switch Self.value(at: path, in: arguments) {
            case .list(let items)? where isList && listItems == nil:
                let texts = items.compactMap(\.keyText)
                guard !texts.isEmpty, texts.count == items.count else { return nil }
                listItems = (values.count, texts)
                values.append("")
            case let value?:
                guard let text = value.keyText else { return nil }
                values.append(text)
            case nil:
                return nil
            }
        }
        guard isList == (listItems != nil) else { return nil }
        let rows = listItems.map { list in list.texts.map { item in var row = values; row[list.position] = item; return row } } ?? [values]
        let groups = keyGroups(of: typename)
        guard !groups.isEmpty else { return nil }
        var candidates: [[String]] = []
        for row in rows {
            var candidateKeys: [String] = []
            for group in groups {
                do { candidateKeys.append(try keys.keyBuilder.entityKey(type: group, values: row)) } catch { throw .key(error) }
            }
            candidates.append(candidateKeys)
        }
        return RedirectTargets(candidates: candidates, isList: isList)
    }

    /// The key spaces records of type `typename` live in: its type policy's group (or the
    /// type), or for an interface or a union those of the object types known to satisfy
    /// it, each once, in order; unnormalized types have none.
    private func keyGroups(of typename: String) -> [String] {
        let types = declaredTypes.types(satisfying: typename)
        var groups: [String] = []
        for type in types.isEmpty ? [typename] : types {
            if let group = keying(for: type)?.group, !groups.contains(group) { groups.append(group) }
        }
        return groups
    }

    /// The named type a field returns and whether it returns a list of it; `nil` for a list
    /// of lists.
    private static func objectType(_ type: TypeReference) -> (String, isList: Bool)? {
        switch type {
        case .nonNull(let inner): objectType(inner)
        case .named(let name): (name, false)
        case .list(let item):
            switch item {
            case .named(let name), .nonNull(.named(let name)): (name, true)
            default: nil
            }
        }
    }

    /// The value a key argument path names: `id` an argument, `input.id` a field of the
    /// input object argument `input`.
    private static func value(at path: String, in arguments: [String: ArgumentValue]) -> ArgumentValue? {
        let steps = path.split(separator: ".").map(String.init)
        guard var value = steps.first.flatMap({ arguments[$0] }) else { return nil }
        for step in steps.dropFirst() {
            guard case .object(let fields) = value, let next = fields[step] else { return nil }
            value = next
        }
        return value
    }
}

extension ArgumentValue {
    /// The value as it goes into an entity key, as a key field's value does (``KeyText``):
    /// a String, Int or Float; `nil` for anything else.
    var keyText: String? {
        switch self {
        case .string(let text): text
        case .int(let number): KeyText.of(int: number)
        case .float(let number): KeyText.of(double: number)
        default: nil
        }
    }
}
