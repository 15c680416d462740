@testable import NormCache

extension FuzzTarget {
    /// GraphQL text compiled through GraphQLSwift into a selection plan, which is then read
    /// from an empty cache (every field missing). It calls the compiler itself rather than
    /// `cache.operation(_:)`, whose per-process table would keep every document fuzzed.
    static let operation = FuzzTarget(name: "operation", feeds: "a GraphQL document: compiled, then read from an empty cache") { bytes in
        guard let operation = try? OperationCompiler.compile(String(decoding: bytes, as: UTF8.self), name: nil) else { return }
        _ = try? NormalizedCache().read(operation, partial: true)
    }
}
