/// The donuts endpoint's cache keys. Its schema is GraphQL/schema.graphqls, which codegen
/// writes into `DonutSchema.sdl` (Generated/) with the types of the views' operations.
extension DonutSchema {
    /// Every type is keyed by `id`.
    static let typePolicies: [String: [String]] = [:]
}
