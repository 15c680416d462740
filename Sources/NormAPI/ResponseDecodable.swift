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
        throw ResponseDecodingError.missing
    }
}

extension String: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        self = try value.scalar(\.stringValue, expected: "a string")
    }
}

extension Int: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        self = try value.scalar(\.intValue, expected: "an integer")
    }
}

extension Double: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        self = try value.scalar(\.doubleValue, expected: "a number")
    }
}

extension Bool: ResponseDecodable {
    @inlinable
    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        self = try value.scalar(\.boolValue, expected: "a boolean")
    }
}

extension ResponseData {
    /// The value `read` takes out of this one, or a mismatch saying what was `expected`.
    @inlinable
    func scalar<Value>(_ read: (Self) -> Value?, expected: String) throws(ResponseDecodingError) -> Value {
        guard let scalar = read(self) else { throw .mismatch(expected: expected, found: self) }
        return scalar
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
