/// The feed endpoint's cache keys. Its schema is GraphQL/schema.graphqls, which codegen
/// writes into `FeedSchema.sdl` (Generated/) with the types of the views' operations.
extension FeedSchema {
    /// Every type is keyed by `id`.
    static let typePolicies: [String: [String]] = [:]
}
