// An app imports NormClient alone: the engine's types it names (NormalizedCache,
// CompiledOperation, CacheValue, CacheObject, ChangeCause...) come with it, as Apollo iOS's
// `Apollo` module re-exports `ApolloAPI`.
@_exported import NormCache
// And what generated types build on (`GraphQLEnum`, `JSONValue`, `SelectionSet`), which the
// typed API (`client.fetch(TripDetailQuery(id: "2"))`) hands back.
@_exported import NormAPI
