/// A field policy of a generated schema (`@fieldPolicy(forField:keyArgs:)`): which
/// arguments of a field name the object it returns, so a read of `trip(id: "3")` that the
/// cache has not stored reads the record `Trip:3` (a cache redirect). Apollo iOS's codegen
/// writes it on the field's selection; ours in ``SchemaMetadata/fieldPolicies``, with the
/// type the field returns, as GraphQL writes it.
///
/// ```swift
/// NormAPI.FieldPolicy(type: "Query", field: "trip", keyArgs: ["id"], returnType: "Trip")
/// NormAPI.FieldPolicy(type: "Query", field: "trips", keyArgs: ["ids"], returnType: "[Trip!]!")
/// ```
public struct FieldPolicy: Hashable, Sendable {
    /// The object or interface type whose field it is.
    public let type: String
    public let field: String
    /// The arguments that make the key, in key order; `input.id` names a field of an input object argument.
    public let keyArgs: [String]
    /// The field's type: `Trip`, `[Trip!]!`.
    public let returnType: String

    public init(type: String, field: String, keyArgs: [String], returnType: String) {
        self.type = type
        self.field = field
        self.keyArgs = keyArgs
        self.returnType = returnType
    }
}
