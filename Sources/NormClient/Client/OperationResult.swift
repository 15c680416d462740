import NormAPI
import NormCache

/// The answer to a generated operation: its data as the operation's generated `Data`,
/// where it came from, and for a cache read which record fields were missing.
///
/// ```swift
/// let result = try await client.fetch(TripDetailQuery(id: "2"))
/// result.data?.trip?.name     // "Porto"
/// result.source               // .cache once it has been fetched
/// result.missing              // ["Trip:2.owner"] when the cache could not answer
/// ```
public struct OperationResult<Data: SelectionSet>: Sendable, Equatable {
    /// The data; nil when there is none (an incomplete cache read, a failed operation).
    public let data: Data?
    public let source: ClientResult.Source
    /// The response's GraphQL errors, as the server sent them.
    public let errors: [CacheValue]
    /// Record-field keys the cache read lacked, e.g. `Trip:1.name`.
    public let missing: [String]
    /// Absent fields the cache read answered through field policies (``ClientResult/redirects``).
    public let redirects: [String]

    /// True when the data is whole: nothing was missing from the cache.
    public var complete: Bool { missing.isEmpty }

    /// `result` with its data decoded under the operation's `variables` (coerced, defaults
    /// applied: what its `@include` / `@skip` are decided by); data that does not fit `Data`
    /// is ``ClientError/decoding(_:)``. Partial data (`returnPartialData`, nulls in the
    /// fields the cache missed) decodes when `Data` allows a null in each of them (optional
    /// fields); when it does not, the result has no data, and ``missing`` says what lacked.
    public init(_ result: ClientResult, variables: CacheObject) throws(ClientError) {
        do {
            data = try result.data.map { value throws(ResponseDecodingError) in try Data(response: value, under: variables) }
        } catch {
            guard !result.complete else { throw .decoding(error) }
            data = nil
        }
        source = result.source
        errors = result.errors
        missing = result.missing
        redirects = result.redirects
    }
}

extension SelectionSet {
    /// Decodes `data` read or received under the operation's `variables` (coerced), which its
    /// `@include` / `@skip` are decided by (``OperationData``). Only a variable that is true
    /// can set what they decide (one absent reads as false), so data under none decodes as
    /// it stands, without carrying them into every value.
    init(response data: CacheValue, under variables: CacheObject) throws(ResponseDecodingError) {
        if variables.values.contains(.bool(true)) {
            try self.init(response: data, variables: .object(variables))
        } else {
            try self.init(response: data)
        }
    }
}
