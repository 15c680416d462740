/// What a generated local cache mutation conforms to: an operation marked
/// `@apollo_client_ios_localCacheMutation`, whose data the app reads from the cache,
/// changes and writes back, and which is never sent (Apollo iOS's `LocalCacheMutation`).
/// Codegen names it `…LocalCacheMutation` and makes its `Data` a ``MutableSelectionSet``;
/// it has a name, a document and variables as any operation, but no fetch takes it:
/// `Client.update(_:from:_:)` does.
///
/// ```swift
/// // query LocalTrips @apollo_client_ios_localCacheMutation { trips { id name } }
/// try client.update(LocalTripsLocalCacheMutation()) { data in
///     data.trips[0].name = "Porto (renamed)"
/// }
/// ```
public protocol LocalCacheMutation: GraphQLOperation where Data: MutableSelectionSet {}

/// A selection set whose fields can be set, as Apollo iOS's `MutableSelectionSet`: the
/// `Data` of a ``LocalCacheMutation``, each type nested in it, and a fragment marked
/// `@apollo_client_ios_localCacheMutation`. Every field, including those that came
/// through a fragment spread, is a `var` of its own. `fragments` and the type cases
/// (`asBird`) are read-only copies of the data: its `jsonValue` takes from them only the
/// fields the selection set does not have itself, so setting a field never loses to a
/// copy, and ``mutateIfFulfilled(_:_:)`` changes a type case.
///
/// ```swift
/// var animal = data.allAnimals[0]
/// animal.species = "Cat"
/// animal.owner?.firstName = "Ana"
/// try animal.mutateIfFulfilled(\.asBird) { $0.wingspan = 2.5 }
/// ```
public protocol MutableSelectionSet: SelectionSet {}

extension MutableSelectionSet {
    /// Changes the type case at `keyPath` (`\.asBird`) when the data has it, as Apollo
    /// iOS's `mutateIfFulfilled`: `transform` gets the case as the data is now (fields set
    /// since it was read included), and this selection set is decoded again from the
    /// changed case over its own data, so its fields and every other case and fragment
    /// show the change. False, with `transform` not called, when the case is nil. Throws
    /// what `transform` throws, or a ``ResponseDecodingError`` when the changed data no
    /// longer fits this selection set (nothing is changed then).
    ///
    /// ```swift
    /// try data.people[0].mutateIfFulfilled(\.asCrew) { $0.role = "Purser" }
    /// ```
    @discardableResult
    public mutating func mutateIfFulfilled<Case: MutableSelectionSet>(_ keyPath: KeyPath<Self, Case?>, _ transform: (inout Case) throws -> Void) throws -> Bool {
        guard self[keyPath: keyPath] != nil else { return false }
        var typeCase = try Case(response: jsonValue)
        try transform(&typeCase)
        self = try Self(response: JSONValue.merging(typeCase.jsonValue, newMembersOf: [jsonValue]))
        return true
    }
}
