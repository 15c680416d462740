// A plugin speaks the kit's types and those the kit's API is made of: GraphQLSwift's `Map`
// (arguments, variables, replies), `GraphQLRequest` and `GraphQLResult`; NormEnvironment's
// `Environment`, `Service` and `LifecycleEvent`. They come with the kit.
@_exported import GraphQL
@_exported import NormEnvironment
// What generated types build on: a plugin's generated operations need nothing else.
@_exported import NormAPI
