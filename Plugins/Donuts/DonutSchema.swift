/// The donuts endpoint: the menu, the user's orders and their payment.
enum DonutSchema {
    static let sdl = """
        type Query {
          "The menu."
          donuts: [Donut!]!
          order(id: ID!): Order
          "The user logged in."
          me: User!
        }

        type Mutation {
          "An unpaid order of the donuts with these ids, each as often as named; an error for an id not on the menu."
          createOrder(items: [ID!]!): Order!
          "Pays an order; an error when there is no such order or it is paid already."
          payOrder(id: ID!): Order!
        }

        type Donut {
          id: ID!
          name: String!
          "In cents."
          price: Int!
        }

        type Order {
          id: ID!
          items: [Donut!]!
          "In cents."
          total: Int!
          paid: Boolean!
        }

        type User {
          id: ID!
          name: String!
        }
        """

    /// Every type is keyed by `id`.
    static let typePolicies: [String: [String]] = [:]
}
