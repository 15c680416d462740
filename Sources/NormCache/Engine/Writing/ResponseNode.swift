/// A response's data as the ``Normalizer`` reads it: a decoded tree (``CacheValue``) or
/// the tape of the response's JSON bytes (``TapeValue``). The normalizer is generic over
/// it, so data from either form is written by one piece of code and refused with the same
/// messages and paths.
///
/// ```swift
/// let name = object.member("__typename", near: 0)   // a CacheValue or a TapeValue
/// name?.kind == .string ? name?.text : nil         // "Trip"
/// ```
protocol ResponseNode {
    associatedtype Object: ResponseObject where Object.Node == Self

    var kind: ResponseKind { get }
    /// Calls `body` with the object, when the value is one (nil otherwise).
    func withObject<Result, Failure: Error>(_ body: (Object) throws(Failure) -> Result) throws(Failure) -> Result?
    /// A string's text; nil for any other value.
    var text: String? { get }
    /// The value as a ``CacheValue``: what a record keeps of a scalar, or of a list or
    /// object under a field with no selections. Consuming: a tree's value moves into the
    /// record instead of being copied.
    consuming func decoded() -> CacheValue
    /// A list's items or an object's members; 0 for another value.
    var count: Int { get }
    /// Calls `body` with each item of a list and its index (nothing for another value).
    func forEachItem<Failure: Error>(_ body: (Int, Self) throws(Failure) -> Void) throws(Failure)
}

extension ResponseNode {
    var kindDescription: String { kind.description }
}

/// An object of response data, its members found by name.
protocol ResponseObject {
    associatedtype Node: ResponseNode where Node.Object == Self

    /// Where a walk of the members in order starts (``position(of:from:)``).
    var firstMember: Int { get }
    /// Where the member named `key` is, looked for at `cursor` first (a response lists
    /// an object's members in the order its selection asks for them, so the member after
    /// the last one found is likely next), then among all.
    func position(of key: String, from cursor: Int) -> Int?
    /// The value of the member at `position`.
    func value(at position: Int) -> Node
    /// Where the member after the one at `position` is.
    func position(after position: Int) -> Int
    /// The member named `key`, looked for at the `hint`-th member first.
    func member(_ key: String, near hint: Int) -> Node?
}

/// The kinds of values a response holds, and a reference, which only data made by hand does.
enum ResponseKind: CustomStringConvertible {
    case null, bool, int, double, string, list, object, reference

    /// The kind as messages name it: "an object", "a string", ...
    var description: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a float"
        case .string: "a string"
        case .list: "a list"
        case .object: "an object"
        case .reference: "a reference"
        }
    }
}

extension CacheValue: ResponseNode {
    @inline(__always)
    var kind: ResponseKind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .list: .list
        case .object: .object
        case .reference: .reference
        }
    }

    @inline(__always)
    func withObject<Result, Failure: Error>(_ body: (CacheObject) throws(Failure) -> Result) throws(Failure) -> Result? {
        if case .object(let object) = self { return try body(object) }
        return nil
    }

    @inline(__always)
    var text: String? { stringValue }

    @inline(__always)
    consuming func decoded() -> CacheValue { self }

    @inline(__always)
    var count: Int {
        switch self {
        case .list(let items): items.count
        case .object(let object): object.count
        default: 0
        }
    }

    @inline(__always)
    func forEachItem<Failure: Error>(_ body: (Int, CacheValue) throws(Failure) -> Void) throws(Failure) {
        guard case .list(let items) = self else { return }
        for (index, item) in items.enumerated() { try body(index, item) }
    }
}

/// Members are found by name as Swift compares strings, and a tape's members
/// (``TapeObject``) the same way. The names looked up are GraphQL names (ASCII), which only
/// a name of the same ASCII bytes equals, but for a name that canonical equivalence takes
/// for one (`"\u{212A}ind"` for `Kind`, the Kelvin sign): no GraphQL server sends such a
/// name, and `==` on the small strings of field names is what keeps a write quick.
extension CacheObject: ResponseObject {
    @inline(__always)
    var firstMember: Int { 0 }

    @inline(__always)
    func position(of key: String, from cursor: Int) -> Int? { index(of: key, from: cursor) }

    @inline(__always)
    func value(at position: Int) -> CacheValue { values[position] }

    @inline(__always)
    func position(after position: Int) -> Int { position + 1 }

    @inline(__always)
    func member(_ key: String, near hint: Int) -> CacheValue? { value(of: key, near: hint) }
}

extension TapeValue: ResponseNode {
    @inline(__always)
    func withObject<Result, Failure: Error>(_ body: (TapeObject) throws(Failure) -> Result) throws(Failure) -> Result? {
        try object().map(body)
    }

    @inline(__always)
    var kind: ResponseKind {
        switch view.pointee.entries[index].kind {
        case .null: .null
        case .false, .true: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .list: .list
        case .object: .object
        }
    }
}

extension TapeObject: ResponseObject {
    /// Member positions are not kept on the tape: the look-up walks from the first member.
    @inline(__always)
    func member(_ key: String, near hint: Int) -> TapeValue? { position(of: key, from: firstMember).map(value(at:)) }
}
