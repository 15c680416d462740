/// The PURL endpoint: the PURLs of an address, a page at a time, created and deleted.
enum PurlSchema {
    static let sdl = """
        type Query {
          "Page `page` (from 1) of the PURLs of `address`."
          purls(address: String!, page: Int!): PurlPage!
        }

        type Mutation {
          "Creates a PURL; when the address has one of that name already, the server keeps its own and returns it."
          createPurl(address: String!, name: String!, url: String!): PURL!
          "Deletes a PURL; an error when there is none of that name."
          deletePurl(address: String!, name: String!): Boolean!
        }

        "A persistent URL, keyed by its address and name."
        type PURL {
          address: String!
          name: String!
          url: String!
          title: String
        }

        type PurlPage {
          items: [PURL!]!
          "The page after this one; null on the last page."
          nextPage: Int
        }
        """

    /// A PURL is keyed by address and name (`PURL:ana@example.org+cv`); a page has no key of
    /// its own and is stored inside the root field that returned it.
    static let typePolicies: [String: [String]] = ["PURL": ["address", "name"], "PurlPage": []]
}
