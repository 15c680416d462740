import GraphQL

/// Apollo iOS's `@apollo_client_ios_localCacheMutation`, the one place its name is written:
/// an operation or fragment marked with it is only read from and written to the cache,
/// never sent (the compiler leaves the directive out of the document sent), and codegen
/// makes its types mutable.
///
/// ```swift
/// LocalCacheMutationDirective.marks(operation.directives)   // true for `query Local @apollo_client_ios_localCacheMutation { … }`
/// ```
package enum LocalCacheMutationDirective {
    package static let name = "apollo_client_ios_localCacheMutation"

    /// Whether `directives`, an operation's or a fragment's, mark it a local cache mutation.
    package static func marks(_ directives: [Directive]) -> Bool {
        directives.contains { $0.name.value == name }
    }
}
