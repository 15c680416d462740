/// The trips endpoint: trips with their owner, destination, journeys and reservations.
enum TripSchema {
    static let sdl = """
        type Query {
          trips: [Trip!]!
          trip(id: ID!): Trip
        }

        type Mutation {
          renameTrip(id: ID!, name: String!): Trip
          createTrip(name: String!): Trip!
          "The id of the deleted trip."
          deleteTrip(id: ID!): ID
        }

        type Trip {
          id: ID!
          name: String!
          "A date, YYYY-MM-DD."
          startsOn: String
          "A date, YYYY-MM-DD."
          endsOn: String
          owner: User!
          destination: Destination
          journeys: [Journey!]!
          reservations: [Reservation!]!
        }

        type User {
          id: ID!
          name: String!
        }

        "Where a trip goes: no key of its own, stored inside its trip's record."
        type Destination {
          city: String!
          country: String!
        }

        type Journey {
          id: ID!
          from: JourneyEndpoint!
          to: JourneyEndpoint!
        }

        union JourneyEndpoint = Station | Airport

        type Station {
          id: ID!
          name: String!
          platform: String
        }

        "Keyed by its IATA code."
        type Airport {
          code: ID!
          name: String!
        }

        type Reservation {
          id: ID!
          kind: String!
          confirmation: String
        }
        """

    /// Airports are keyed by their code, a union member keyed by its own field; a
    /// destination is never normalized. Every other type is keyed by `id`.
    static let typePolicies: [String: [String]] = ["Airport": ["code"], "Destination": []]
}
