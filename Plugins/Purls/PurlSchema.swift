/// The PURL endpoint's cache keys. Its schema is GraphQL/schema.graphqls, which codegen
/// writes into `PurlSchema.sdl` (Generated/) with the types of the views' operations.
extension PurlSchema {
    /// A PURL is keyed by address and name (`PURL:ana@example.org+cv`); a page has no key of
    /// its own and is stored inside the root field that returned it.
    static let typePolicies: [String: [String]] = ["PURL": ["address", "name"], "PurlPage": []]
}
