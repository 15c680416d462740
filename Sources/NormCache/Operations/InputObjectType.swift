/// An input object type as a schema declares it: its fields in order, each with its type
/// and whether it has a default, and whether it is `@oneOf` (exactly one field, not null).
/// ``VariableCoercion`` checks a variable's object value against it.
///
/// ```swift
/// let types = try PossibleTypes(sdl: "input ReviewInput { stars: Int! commentary: String }")
/// let review = types.inputObject("ReviewInput")!
/// review.fields.map(\.name)              // ["stars", "commentary"]
/// review.field("stars")?.isRequired      // true: non-null, no default
/// review.isOneOf                         // false
/// ```
struct InputObjectType: Sendable, Equatable {
    /// One field of an input object.
    struct Field: Sendable, Equatable {
        let name: String
        let type: TypeReference
        let hasDefault: Bool

        /// A non-null field without a default: a value must give it.
        var isRequired: Bool {
            if case .nonNull = type { !hasDefault } else { false }
        }
    }

    /// In the schema's order (an extension's fields after the definition's).
    var fields: [Field] = []
    /// `input SearchInput @oneOf { ... }`: a value gives exactly one field, and not null.
    var isOneOf = false

    /// The field named `name`, if the type has one.
    func field(_ name: String) -> Field? { fields.first { $0.name == name } }
}
