/// A type whose values decode from ``ResponseData``: the scalars, ``GraphQLEnum``, lists,
/// optionals, and every generated selection set. A custom scalar a team writes conforms
/// too (see ``CustomScalarType``).
///
/// ```swift
/// struct Timestamp: CustomScalarType {
///     let seconds: Int
///     init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
///         guard let seconds = value.intValue else { throw .mismatch(expected: "seconds", found: value) }
///         self.seconds = seconds
///     }
///     var jsonValue: JSONValue { .int(seconds) }
/// }
/// ```
public protocol ResponseDecodable: Sendable {
    init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError)

    /// The value of a member the data does not have: an error ("missing"), but nil for an optional.
    static func absent() throws(ResponseDecodingError) -> Self
}

extension ResponseDecodable {
    public static func absent() throws(ResponseDecodingError) -> Self {
        throw ResponseDecodingError(problem: "missing")
    }
}

extension String: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let string = value.stringValue else { throw .mismatch(expected: "a string", found: value) }
        self = string
    }
}

extension Int: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let int = value.intValue else { throw .mismatch(expected: "an integer", found: value) }
        self = int
    }
}

extension Double: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let double = value.doubleValue else { throw .mismatch(expected: "a number", found: value) }
        self = double
    }
}

extension Bool: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let bool = value.boolValue else { throw .mismatch(expected: "a boolean", found: value) }
        self = bool
    }
}

extension Optional: ResponseDecodable where Wrapped: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        self = value.isNull ? nil : try Wrapped(response: value)
    }

    public static func absent() -> Self { nil }
}

extension Array: ResponseDecodable where Element: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let items = value.listValue else { throw .mismatch(expected: "a list", found: value) }
        self = []
        reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(ResponseDecodingError) { append(try Element(response: item)) } catch { throw error.inside(String(index)) }
        }
    }
}
