import NormAPI
import NormCache

/// The answer to one operation: its data, the GraphQL errors that came with it, where it
/// came from, and, for a cache read, which record fields were missing.
///
/// ```swift
/// let result = try await client.fetch(tripList, from: trips)
/// result.source     // .network the first time, .cache after
/// result.missing    // ["QUERY_ROOT.trips"] when the cache could not answer
/// ```
public struct ClientResult: Sendable, Equatable {
    public enum Source: String, Sendable {
        case cache, network
    }

    /// The operation's name, nil for an anonymous one.
    public let operationName: String?
    public let source: Source
    /// The `data` object; nil when there is none (an incomplete cache read, a failed operation).
    public let data: CacheValue?
    /// The response's GraphQL errors, as the server sent them; for partial data from the
    /// cache (`returnPartialData`), one error a missing field, at its path.
    public let errors: [CacheValue]
    /// Record-field keys the cache read lacked, e.g. `Trip:1.name`.
    public let missing: [String]
    /// Record-field keys the cache read found stale: past their max age (those past max
    /// stale too are among ``missing``) or invalidated (docs/engine.md, "Freshness").
    public let stale: [String]
    /// Absent fields the cache read answered from the records their field policies name,
    /// e.g. `QUERY_ROOT.trip(id:3) → Trip:3` (``CacheRedirect``).
    public let redirects: [String]

    /// Of a cache read, record-field keys of deferred fields (`@defer`) the cache lacks:
    /// their part is pending, and under Apollo iOS's semantics the result is complete
    /// without them (``ReadResult/pending``).
    public let pending: [String]
    /// For an answer in parts (`@defer`): whether more parts follow this one. Nil for a
    /// whole response and for a cache read.
    public let hasNext: Bool?

    /// True when the data is whole: nothing was missing from the cache.
    public var complete: Bool { missing.isEmpty }

    init(operation: CompiledOperation, source: Source, data: CacheValue?, errors: [CacheValue] = [], missing: [String] = [],
         stale: [String] = [], redirects: [String] = [], pending: [String] = [], hasNext: Bool? = nil) {
        self.pending = pending
        self.hasNext = hasNext
        self.operationName = operation.name
        self.source = source
        self.data = data
        self.errors = errors
        self.missing = missing
        self.stale = stale
        self.redirects = redirects
    }

    /// A result read from the cache.
    init(operation: CompiledOperation, read: ReadResult) {
        self.init(operation: operation, source: .cache, data: read.data, errors: read.errors, missing: read.missing,
                  stale: read.stale, redirects: read.redirects.map(\.description), pending: read.pending)
    }

    /// A result from the network: the response's `data` and `errors`, decoded from the
    /// JSON text it came as (the cache writes the rest from the same tape).
    init(operation: CompiledOperation, response: TransportResponse) {
        var errors: [CacheValue] = []
        if case .list(let list)? = response.member("errors") { errors = list }
        // `.none`, not `nil`: CacheValue is nil-literal-expressible, so `nil` would be `.null`.
        let data = response.member("data").flatMap { $0 == .null ? .none : .some($0) }
        var hasNext: Bool?
        if case .bool(let said)? = response.member("hasNext") { hasNext = said }
        self.init(operation: operation, source: .network, data: data, errors: errors, hasNext: hasNext)
    }
}

/// Why the client could not answer.
public enum ClientError: Error, Equatable, CustomStringConvertible {
    /// No response came (offline, a failure, cancelled, an HTTP error). For a query,
    /// `cached` is what the cache answered meanwhile: its missing fields are those that
    /// sent the query to the network. Two failures are equal when their causes are.
    case transport(TransportError, cached: ClientResult? = nil)
    /// A cache-only read found fields missing; the result says which.
    case cacheMiss(ClientResult)
    /// The cache refused the request (a variable its type does not accept:
    /// ``CacheError/variable(_:)``) or the response (it does not fit the operation).
    case cache(CacheError)
    /// The server answered with GraphQL errors (reported for a watcher's fetch).
    case graphQLErrors([CacheValue])
    /// A request the client refuses, e.g. watching with no-cache.
    case invalid(String)
    /// The operation (`query TripList`) must reach the network, but its call names no
    /// transport and the client has no ``Client/endpoint``; `cached` as for ``transport(_:cached:)``.
    case noEndpoint(String, cached: ClientResult? = nil)
    /// The data does not fit a generated operation's types (the path says where).
    case decoding(ResponseDecodingError)

    public var description: String {
        switch self {
        case .transport(let error, _): "\(error)"
        case .cacheMiss(let result):
            "cache-only: the cache cannot answer; missing: " + result.missing.joined(separator: ", ")
                + (result.redirects.isEmpty ? "" : " (a field policy redirected " + result.redirects.joined(separator: ", ") + ")")
        case .cache(let error): "\(error)"
        case .graphQLErrors(let errors):
            "the server answered with errors: " + graphQLErrorMessages(.list(errors)).joined(separator: "; ")
        case .invalid(let message): message
        case .noEndpoint(let operation, _):
            "\(operation) must reach the network, but no endpoint was given (from:) and the client has none (Client.endpoint)"
        case .decoding(let error): "the data does not fit the generated type: \(error)"
        }
    }

    /// What the cache answered for the operation that failed, when the failure has it: a
    /// cache-only miss, a query whose request got no response or had no endpoint to go to.
    public var cachedResult: ClientResult? {
        switch self {
        case .cacheMiss(let result): result
        case .transport(_, let cached), .noEndpoint(_, let cached): cached
        default: nil
        }
    }

    public static func == (a: ClientError, b: ClientError) -> Bool {
        switch (a, b) {
        case (.transport(let x, _), .transport(let y, _)): x == y
        case (.cacheMiss(let x), .cacheMiss(let y)): x == y
        case (.cache(let x), .cache(let y)): x == y
        case (.graphQLErrors(let x), .graphQLErrors(let y)): x == y
        case (.invalid(let x), .invalid(let y)): x == y
        case (.noEndpoint(let x, _), .noEndpoint(let y, _)): x == y
        case (.decoding(let x), .decoding(let y)): x == y
        default: false
        }
    }
}
