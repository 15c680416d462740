/// Data read or received for an operation, with the operation's variables: what generated
/// types decide `@include` / `@skip` by (``ResponseData/holds(_:)``), as Apollo iOS's
/// executor decides them from the variables and not from what the data happens to have.
/// Every value inside carries the same variables.
///
/// ```swift
/// let query = AllAnimalsQuery(getCat: true)
/// let data = try AllAnimalsQuery.Data(response: cacheValue, variables: CacheValue(query.__variables))
/// data.allAnimals[0].asCatIfGetCat?.isJellicle    // set for a cat, as $getCat is true
/// ```
public struct OperationData<Base: ResponseData>: ResponseData {
    public let base: Base
    /// The variables, held once for every value inside: each value carries a reference.
    @usableFromInline let shared: Shared

    /// The operation's variables, an object.
    public var variables: Base { shared.variables }

    @inlinable
    public init(_ base: Base, variables: Base) {
        self.init(base, shared: Shared(variables))
    }

    @inlinable
    init(_ base: Base, shared: Shared) {
        self.base = base
        self.shared = shared
    }

    @usableFromInline
    final class Shared: Sendable {
        @usableFromInline let variables: Base

        @inlinable
        init(_ variables: Base) { self.variables = variables }
    }

    @inlinable
    public func member(_ key: String) -> OperationData? { base.member(key).map { OperationData($0, shared: shared) } }

    @inlinable
    public func member(_ key: String, near hint: Int) -> OperationData? {
        base.member(key, near: hint).map { OperationData($0, shared: shared) }
    }

    // Inlinable, as generated code decodes through every member: specialized for the
    // engine's values, the wrapper costs little.
    @inlinable
    public var isNull: Bool { base.isNull }
    @inlinable
    public var stringValue: String? { base.stringValue }
    @inlinable
    public var intValue: Int? { base.intValue }
    @inlinable
    public var doubleValue: Double? { base.doubleValue }
    @inlinable
    public var boolValue: Bool? { base.boolValue }

    @inlinable
    public var listValue: [OperationData]? { base.listValue?.map { OperationData($0, shared: shared) } }

    public var kindDescription: String { base.kindDescription }

    @inlinable
    public func booleanVariable(_ name: String) -> Bool? { variables.member(name)?.boolValue }
}

extension SelectionSet {
    /// Decodes `data` read or received for an operation whose variables are `variables` (an
    /// object of the same kind of value): its `@include` / `@skip` type cases and fragments
    /// are set as the variables say (``OperationData``). Decoded without them, every
    /// variable reads as absent.
    ///
    /// ```swift
    /// let data = try TripsQuery.Data(response: read.data!, variables: CacheValue(query.__variables))
    /// ```
    @inlinable
    public init<Source: ResponseData>(response data: Source, variables: Source) throws(ResponseDecodingError) {
        try self.init(response: OperationData(data, variables: variables))
    }
}
