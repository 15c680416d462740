/// What every generated type of data conforms to: an operation's `Data`, a fragment, and
/// each nested type of a selection (`TripDetailQuery.Data.Trip.Owner`). Each is a Sendable
/// value with a stored property per field, decoded eagerly from ``ResponseData``, with a
/// memberwise initializer for tests, previews and optimistic responses, and written back
/// as data by `jsonValue`.
///
/// ```swift
/// let trip = try TripHeader(response: cacheValue)
/// let preview = TripHeader(id: "2", name: "Porto", startsOn: nil, endsOn: nil, destination: nil)
/// preview.jsonValue    // {"__typename": "Trip", "id": "2", "name": "Porto", ...}
/// ```
public protocol SelectionSet: ResponseDecodable, ResponseEncodable, Hashable {}

/// A generated fragment type: a selection set named after its fragment, reachable from
/// every selection that spreads it as `fragments.tripHeader`.
///
/// ```swift
/// trip.fragments.tripHeader.name
/// TripHeader.fragmentDefinition    // "fragment TripHeader on Trip { ... }"
/// ```
public protocol Fragment: SelectionSet {
    /// The fragment as the project writes it.
    static var fragmentDefinition: String { get }
}

/// A generated input object: its fields as properties (nil leaves a field out), written as
/// an input value by `jsonValue`.
///
/// ```swift
/// let filter = TripFilter(kinds: [.init(.flight)], after: nil)
/// filter.jsonValue      // {"kinds": ["FLIGHT"]}
/// ```
public protocol InputObject: ResponseEncodable, Hashable {}
