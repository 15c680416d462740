/// What a generated enum conforms to: its cases are the values the schema knew when the
/// code was generated, each with the GraphQL name as its raw value.
///
/// ```swift
/// public enum ReservationKind: String, EnumType {
///     case flight = "FLIGHT"
///     case hotel = "HOTEL"
/// }
/// ```
public protocol EnumType: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// A value of a GraphQL enum as it arrives: a case the generated enum knows, or a value the
/// schema gained after the code was generated, kept as its name (Apollo iOS's shape).
///
/// ```swift
/// switch reservation.kind {
/// case .case(.flight): "✈︎"
/// case .case(let kind): kind.rawValue
/// case .unknown(let name): name       // a kind the server added since
/// }
/// reservation.kind == .flight          // compares with a known case
/// ```
public enum GraphQLEnum<Known: EnumType>: Hashable, Sendable, ResponseDecodable, ResponseEncodable {
    case `case`(Known)
    case unknown(String)

    public init(_ value: Known) { self = .case(value) }

    public init(rawValue: String) {
        self = Known(rawValue: rawValue).map(GraphQLEnum.case) ?? .unknown(rawValue)
    }

    /// The known case; nil for a value the generated enum does not have.
    public var value: Known? {
        if case .case(let known) = self { return known }
        return nil
    }

    /// The value's GraphQL name.
    public var rawValue: String {
        switch self {
        case .case(let known): known.rawValue
        case .unknown(let name): name
        }
    }

    public init<Source: ResponseData>(response value: Source) throws(ResponseDecodingError) {
        guard let name = value.stringValue else { throw .mismatch(expected: "an enum value's name", found: value) }
        self.init(rawValue: name)
    }

    public var jsonValue: JSONValue { .string(rawValue) }

    public static func == (value: GraphQLEnum, known: Known) -> Bool { value.value == known }
    public static func != (value: GraphQLEnum, known: Known) -> Bool { value.value != known }
}
