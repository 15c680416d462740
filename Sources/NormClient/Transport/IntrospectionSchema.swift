import NormCache

/// How an HTTP endpoint tells its schema: the standard introspection query, and its result
/// printed as SDL (by NormCache's ``IntrospectionSDL``, which reads a project's `schema.json` too).
///
/// ```swift
/// let data = try await transport.introspect()   // sends IntrospectionSchema.query
/// try IntrospectionSchema.sdl(from: data)        // "interface Node {\n  id: ID!\n}\n\n…"
/// ```
enum IntrospectionSchema {
    /// The introspection query: root types, and every type with its fields, arguments,
    /// input fields, interfaces, enum values and possible types (no descriptions or directives).
    static let query = """
        query IntrospectionQuery {
          __schema {
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
          }
        }

        fragment FullType on __Type {
          kind
          name
          fields(includeDeprecated: true) {
            name
            args { ...InputValue }
            type { ...TypeRef }
            isDeprecated
            deprecationReason
          }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }

        fragment InputValue on __InputValue {
          name
          type { ...TypeRef }
          defaultValue
        }

        fragment TypeRef on __Type {
          kind
          name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name
            ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
        }
        """

    /// The SDL of the schema in `data` (the introspection query's `data`), as
    /// ``IntrospectionSDL`` writes it.
    static func sdl(from data: CacheValue) throws(TransportError) -> String {
        do { return try IntrospectionSDL.sdl(of: data) } catch { throw .invalidResponse("not an introspection result: \(error.description)") }
    }
}
