/// A JSON value as generated types write it: an operation's variables, an input object, and
/// a selection set turned back into data (a mutation's optimistic response). Objects keep
/// their members' order.
///
/// ```swift
/// let variables: JSONValue = .object([("id", .string("2")), ("first", .int(10))])
/// TripHeader(id: "2", name: "Porto").jsonValue   // {"__typename": "Trip", "id": "2", ...}
/// ```
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([JSONValue])
    case object([Member])

    /// One member of an object.
    public struct Member: Hashable, Sendable {
        public let key: String
        public let value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object of `members` in order.
    public static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { Member($0, $1) })
    }

    /// An input object or a set of variables: the members whose value is nil are left out,
    /// as GraphQL leaves out an input value that is not given.
    public static func input(_ members: KeyValuePairs<String, JSONValue?>) -> JSONValue {
        .object(members.compactMap { key, value in value.map { Member(key, $0) } })
    }

    /// The object of `parts`' members in order, each key once: a selection set's own fields
    /// and then those of its fragments and type cases, which repeat some of them, each with
    /// a selection of its own. A repeated key's values merge the same way (a list item by
    /// item), so an object keeps the fields every part selected of it.
    ///
    /// ```swift
    /// JSONValue.merging([.object(["nick": .object(["short": .string("R")])]),
    ///                    .object(["nick": .object(["long": .string("Rui")])])])   // {"nick": {"short": "R", "long": "Rui"}}
    /// ```
    public static func merging(_ parts: [JSONValue]) -> JSONValue {
        var index: [String: Int] = [:]
        var members: [Member] = []
        for case .object(let partMembers) in parts {
            for member in partMembers {
                if let at = index[member.key] {
                    members[at] = Member(member.key, members[at].value.merged(with: member.value))
                } else {
                    index[member.key] = members.count
                    members.append(member)
                }
            }
        }
        return .object(members)
    }

    /// A ``MutableSelectionSet``'s data: `own` (its fields as they are now, each set or
    /// not) and, of each of `views` (its fragments and type cases as they were read), the
    /// members `own` does not have, in order. A field the app set is never overwritten by
    /// a view's older value, nor is a list it reordered merged item by item with one.
    ///
    /// ```swift
    /// JSONValue.merging(.object(["species": .string("Cat")]),
    ///                   newMembersOf: [.object(["species": .string("Dog"), "wingspan": .double(2)])])   // {"species": "Cat", "wingspan": 2}
    /// ```
    public static func merging(_ own: JSONValue, newMembersOf views: [JSONValue]) -> JSONValue {
        guard case .object(var members) = own else { return own }
        var keys = Set(members.map(\.key))
        for case .object(let viewMembers) in views {
            for member in viewMembers where keys.insert(member.key).inserted { members.append(member) }
        }
        return .object(members)
    }

    /// This value with `other`'s: objects merged, lists of one length merged item by item;
    /// anything else stays as it is (the parts agree, being read from one object).
    private func merged(with other: JSONValue) -> JSONValue {
        switch (self, other) {
        case (.object, .object): .merging([self, other])
        case (.list(let items), .list(let others)) where items.count == others.count:
            .list(zip(items, others).map { $0.merged(with: $1) })
        default: self
        }
    }
}

/// A type whose values are written as ``JSONValue``s: scalars, ``GraphQLEnum``, lists,
/// optionals (nil is `null`), input objects and selection sets.
public protocol ResponseEncodable: Sendable {
    var jsonValue: JSONValue { get }
}

extension String: ResponseEncodable { public var jsonValue: JSONValue { .string(self) } }
extension Int: ResponseEncodable { public var jsonValue: JSONValue { .int(self) } }
extension Double: ResponseEncodable { public var jsonValue: JSONValue { .double(self) } }
extension Bool: ResponseEncodable { public var jsonValue: JSONValue { .bool(self) } }

extension Optional: ResponseEncodable where Wrapped: ResponseEncodable {
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}

extension Array: ResponseEncodable where Element: ResponseEncodable {
    public var jsonValue: JSONValue { .list(map(\.jsonValue)) }
}
