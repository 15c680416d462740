import NormCache

/// A GraphQL response as a transport hands it to the client. The HTTP transport and
/// plugins hand over the JSON text they received, checked to be a response object
/// (`HTTPAnswer`, `LoadedPlugin`): the client writes it into the cache from its bytes in one
/// pass and decodes only the `data` and `errors` its result shows. A transport that builds
/// its response as a value (an app's own, a test's) hands that over instead. The HTTP
/// transport adds how long the response stays fresh, as its `Cache-Control` header says
/// (``CacheControlHeader``); other responses have no max age of their own.
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
    /// The seconds what the response writes stays fresh, as its transport says (`Cache-Control:
    /// max-age=300`); nil when it says nothing.
    package let maxAge: Double?
    /// What the transport found wrong with its answer but let pass (a `Cache-Control` header
    /// that does not parse), said as a warning of the cache's when the response is written.
    package let warning: String?
    /// For an answer delivered in parts (`@defer`) whose last part so far said `"hasNext":
    /// true`: the parts still to come. Nil for a whole response.
    package let later: IncrementalParts?

    /// A response object a transport built as a value.
    public init(_ value: CacheValue) {
        form = .value(value)
        maxAge = nil
        warning = nil
        later = nil
    }

    /// The response so far of an answer delivered in parts, with the parts still to come.
    package init(_ value: CacheValue, maxAge: Double?, warning: String?, later: IncrementalParts?) {
        form = .value(value)
        self.maxAge = maxAge
        self.warning = warning
        self.later = later
    }

    /// A response received as JSON text, which its transport has checked is an object, fresh
    /// for `maxAge` seconds when its transport says so.
    package init(json: JSONText, maxAge: Double? = nil, warning: String? = nil) {
        form = .json(json)
        self.maxAge = maxAge
        self.warning = warning
        later = nil
    }

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

    /// Writes the response into `cache` for `operation` (``NormalizedCache/write(response:for:variables:schema:cause:maxAge:)``),
    /// from its bytes when it came as JSON text, with its max age; then its ``warning``, if
    /// any, joins the cache's warnings.
    func write(into cache: NormalizedCache, for operation: CompiledOperation, variables: CacheObject, schema: SchemaKnowledge?,
               cause: ChangeCause) throws(CacheError) {
        switch form {
        case .json(let text): try cache.write(response: text, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
        case .value(let value): try cache.write(response: value, for: operation, variables: variables, schema: schema, cause: cause, maxAge: maxAge)
        }
        if let warning { cache.warn(warning) }
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
