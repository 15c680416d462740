/// What the engine knows of types while it reads and writes: the cache's type policies
/// and possible types (given, or learned from responses), whose semantics it follows, and
/// the knowledge of the endpoint whose operation is in progress (``endpoint``). The one
/// owner of how an object is keyed (``keying(for:returnedAs:)``) and whether a field
/// applies to it (``applicability(of:to:in:variables:shownBy:)``, FieldApplicability.swift).
///
/// A class, held by ``EngineState`` in a constant, for the reason ``RecordLayers`` is one:
/// each read asks it for the root type, and a struct would be copied for the call.
///
/// ```swift
/// let schema = SchemaContext()
/// schema.policies["Book"] = .keyFields(["isbn"])
/// schema.keying(for: "Book")?.fields   // ["isbn"]
/// schema.rootType(.query)              // "Query"
/// ```
final class SchemaContext {
    var policies = TypePolicies()
    /// Whose answers reads and writes give where Apollo iOS and Apollo Client differ.
    var semantics = Semantics.apolloIOS
    var possibleTypes = PossibleTypes()
    /// The knowledge of the endpoint whose operation is being read or written, for the
    /// length of that call (``EngineState/withSchema(_:_:)``); `nil`: the cache's own alone.
    var endpoint: SchemaKnowledge?

    /// The name of the root type of operations of `kind` (`Query` unless a schema renames it).
    func rootType(_ kind: CompiledOperation.Kind) -> String { declaredTypes.rootType(of: kind) }

    /// The schema that names the root types and types input object fields: the
    /// endpoint's when it has one, else the cache's own. Lent, not copied: each read asks
    /// it (for the root type), and a copy retains and releases every table it holds.
    var declaredTypes: PossibleTypes {
        _read {
            if endpoint?.possibleTypes.fromSchema == true { yield endpoint!.possibleTypes } else { yield possibleTypes }
        }
    }

    /// The key fields and the key's type part of `typename`: the cache's policy, else the
    /// endpoint's, else that of an interface or union the type belongs to (in name order),
    /// or, for a type the schema does not define returned by a field whose type is
    /// `returnType` (an interface), that type's policy, else the default (`declared` false).
    func keying(for typename: String, returnedAs returnType: String? = nil) -> (fields: [String], group: String, declared: Bool)? {
        let unknown = returnType != nil && declaredTypes.fromSchema && !declaredTypes.definesObjectType(typename)
        let supertypes = unknown ? [returnType!] : declaredTypes.supertypes(of: typename)
        return policies.keying(for: typename, over: endpoint?.typePolicies, inheritingFrom: supertypes)
    }
}
