/// The trips endpoint's cache keys. Its schema is GraphQL/schema.graphqls, which codegen
/// writes into `TripSchema.sdl` (Generated/) with the types of the views' operations.
extension TripSchema {
    /// Airports are keyed by their code, a union member keyed by its own field; a
    /// destination is never normalized. Every other type is keyed by `id`.
    static let typePolicies: [String: [String]] = ["Airport": ["code"], "Destination": []]
}
