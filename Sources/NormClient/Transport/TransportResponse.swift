import NormCache

/// A GraphQL response as a transport hands it to the client. The HTTP transport and
/// plugins hand over the JSON text they received, checked to be a response object
/// (`HTTPAnswer`, `LoadedPlugin`): the client writes it into the cache from its bytes in one
/// pass and decodes only the `data` and `errors` its result shows. A transport that builds
/// its response as a value (an app's own, a test's) hands that over instead.
///
/// ```swift
/// let response = try await network.send(request, over: trips)
/// response.value["data"]?["trips"]   // the response object, decoded
/// ```
public struct TransportResponse: Sendable, Equatable {
    private enum Form: Sendable {
        case json(JSONText)
        case value(CacheValue)
    }

    private let form: Form

    /// A response object a transport built as a value.
    public init(_ value: CacheValue) { form = .value(value) }

    /// A response received as JSON text, which its transport has checked is an object.
    package init(json: JSONText) { form = .json(json) }

    /// The response object, decoded.
    public var value: CacheValue {
        switch form {
        case .json(let text): text.decoded()
        case .value(let value): value
        }
    }

    /// The member `name` of the response object, decoded (`data`, `errors`); nil when absent.
    func member(_ name: String) -> CacheValue? {
        switch form {
        case .json(let text): text.member(name)
        case .value(let value): value[name]
        }
    }

    /// Writes the response into `cache` for `operation` (``NormalizedCache/write(response:for:variables:schema:cause:)``),
    /// from its bytes when it came as JSON text.
    func write(into cache: NormalizedCache, for operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?,
               cause: ChangeCause) throws(CacheError) {
        switch form {
        case .json(let text): try cache.write(response: text, for: operation, variables: variables, schema: schema, cause: cause)
        case .value(let value): try cache.write(response: value, for: operation, variables: variables, schema: schema, cause: cause)
        }
    }

    /// Replaces the optimistic `layer` of `cache` with the response (``NormalizedCache/commitOptimistic(_:response:for:variables:schema:)``).
    func commit(layer: String, into cache: NormalizedCache, for operation: CompiledOperation, variables: CacheObject,
                schema: SchemaKnowledge?) throws(CacheError) {
        switch form {
        case .json(let text): try cache.commitOptimistic(layer, response: text, for: operation, variables: variables, schema: schema)
        case .value(let value): try cache.commitOptimistic(layer, response: value, for: operation, variables: variables, schema: schema)
        }
    }

    /// Two responses are equal when their objects are, whichever form they came in.
    public static func == (a: TransportResponse, b: TransportResponse) -> Bool { a.value == b.value }
}
