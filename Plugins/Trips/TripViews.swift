import NormPluginKit

// The operations of the trips views, each beside the view it serves.

/// The list of trips: their names.
enum TripListView {
    static let query = NamedOperation("query TripList { trips { id name } }")
}

/// The header of a trip: what the detail view shows on top and what a new trip shows first.
enum TripHeaderView {
    static let fragment = NamedFragment("""
        fragment TripHeader on Trip { id name startsOn endsOn destination { city country } }
        """)
}

/// One trip: its header, owner, journeys between stations and airports, and reservations.
enum TripDetailView {
    static let endpoint = NamedFragment("""
        fragment JourneyEndpointFields on JourneyEndpoint {
          __typename
          ... on Station { id name platform }
          ... on Airport { code name }
        }
        """)

    static let query = NamedOperation("""
        query TripDetail($id: ID!) {
          trip(id: $id) {
            ...TripHeader
            owner { id name }
            journeys { id from { ...JourneyEndpointFields } to { ...JourneyEndpointFields } }
            reservations { id kind confirmation }
          }
        }
        """, fragments: [TripHeaderView.fragment, endpoint])
}

/// The changes the trips commands make, each selecting what the views above need.
enum TripMutations {
    static let rename = NamedOperation("""
        mutation RenameTrip($id: ID!, $name: String!) { renameTrip(id: $id, name: $name) { __typename id name } }
        """)

    static let create = NamedOperation("""
        mutation CreateTrip($name: String!) { createTrip(name: $name) { __typename ...TripHeader owner { id name } } }
        """, fragments: [TripHeaderView.fragment])

    static let delete = NamedOperation("""
        mutation DeleteTrip($id: ID!) { deleteTrip(id: $id) }
        """)
}
