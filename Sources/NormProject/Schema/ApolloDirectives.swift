import GraphQL
import NormCache

/// The directives Apollo's codegen knows in every schema it reads, so that an app's schema
/// never declares them and its operations and extensions may still use them: Apollo iOS's
/// client directives `@apollo_client_ios_localCacheMutation`, `@import`, `@typePolicy`,
/// `@fieldPolicy` (apollo-ios-codegen's `apolloCodegenSchemaExtension.ts`; with Apollo Kotlin's
/// pagination arguments `embeddedFields`, `connectionFields` and `paginationArgs`, and its
/// normalized cache's `@connection`, `@embeddedField` and `@embedded`) and `@defer`,
/// which is not yet in the GraphQL specification (`experimentalDeferDirective.ts`); and the
/// max-age directives Apollo Kotlin's normalized cache reads, Apollo Server's
/// `@cacheControl` and its `@cacheControlField`, with their `CacheControlScope`. `@oneOf`
/// needs nothing: GraphQLSwift knows it, as graphql-js does.
///
/// A schema that declares one of them keeps its own declaration, as Apollo's codegen keeps
/// it; a `@defer` declared with other arguments, locations or repeatability is replaced by
/// the one Apollo iOS supports, with a warning, as Apollo's codegen replaces it.
///
/// ```swift
/// var warnings: [ProjectError.Problem] = []
/// let added = ApolloDirectives.definitions(missingFrom: schemaDefinitions, warnings: &warnings)
/// // schemaDefinitions.filter { !ApolloDirectives.replaces($0) } + added: the schema to build
/// ```
enum ApolloDirectives {
    /// The name messages give the declarations' source.
    static let sourceName = "(Apollo's client and cache directives)"

    /// Each definition by the name it defines (`@typePolicy`, `CacheControlScope`),
    /// declared as Apollo's codegen, Apollo Server and Apollo Kotlin declare it.
    static let declarations: KeyValuePairs<String, String> = [
        "@" + LocalCacheMutationDirective.name:
            "directive @\(LocalCacheMutationDirective.name) on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION",
        "@import": "directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION",
        "@typePolicy": "directive @typePolicy(keyFields: String! = \"\", embeddedFields: String! = \"\", connectionFields: String! = \"\") "
            + "on OBJECT | INTERFACE",
        "@fieldPolicy": "directive @fieldPolicy(forField: String!, keyArgs: String! = \"\", paginationArgs: String! = \"\") "
            + "repeatable on OBJECT | INTERFACE",
        "@connection": "directive @connection on OBJECT",
        "@embeddedField": "directive @embeddedField(name: String!) repeatable on OBJECT | INTERFACE",
        "@embedded": "directive @embedded on FIELD_DEFINITION",
        "@defer": "directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT",
        "CacheControlScope": "enum CacheControlScope { PUBLIC PRIVATE }",
        "@cacheControl": "directive @cacheControl(maxAge: Int, inheritMaxAge: Boolean, scope: CacheControlScope) "
            + "on FIELD_DEFINITION | OBJECT | INTERFACE | UNION",
        "@cacheControlField": "directive @cacheControlField(name: String!, maxAge: Int, inheritMaxAge: Boolean, scope: CacheControlScope) "
            + "repeatable on OBJECT | INTERFACE",
    ]

    /// The declarations to add to a schema of `definitions`: every directive (and type)
    /// above that the schema does not declare, and `@defer` again when its declaration is
    /// not the one Apollo iOS supports (a warning at it says so).
    static func definitions(missingFrom definitions: [Definition], warnings: inout [ProjectError.Problem]) -> [Definition] {
        let declared = Dictionary(definitions.compactMap { ($0 as? DirectiveDefinition).map { ("@" + $0.name.value, $0) } },
                                  uniquingKeysWith: { first, _ in first })
        let types = Set(definitions.compactMap { ($0 as? TypeDefinition)?.name.value })
        var added: [Definition] = []
        for (name, text) in declarations where !types.contains(name) {
            if let own = declared[name] {
                guard name == "@defer", !matchesDefer(own) else { continue }
                warnings.append(.init(at: own.loc, "@defer is declared here with other arguments, locations or repeatability than "
                                      + "Apollo iOS supports; it is replaced by \(text.dropFirst("directive ".count))"))
            }
            added += parsed[name] ?? []
        }
        return added
    }

    /// Whether `definition` is a `@defer` declaration that ``definitions(missingFrom:warnings:)``
    /// replaces: one that is not Apollo iOS's.
    static func replaces(_ definition: Definition) -> Bool {
        guard let directive = definition as? DirectiveDefinition, directive.name.value == "defer" else { return false }
        return !matchesDefer(directive)
    }

    /// The declarations, parsed once.
    private static let parsed: [String: [Definition]] = Dictionary(uniqueKeysWithValues: declarations.map { name, text in
        (name, try! GraphQL.parse(source: Source(body: text, name: sourceName)).definitions)
    })

    /// As apollo-ios-codegen compares them: the same repeatability, locations and argument names.
    private static func matchesDefer(_ directive: DirectiveDefinition) -> Bool {
        guard let apollo = parsed["@defer"]?.first as? DirectiveDefinition else { return false }
        func shape(_ d: DirectiveDefinition) -> (Bool, [String], [String]) {
            (d.repeatable, d.locations.map(\.value).sorted(), d.arguments.map(\.name.value).sorted())
        }
        return shape(directive) == shape(apollo)
    }
}
