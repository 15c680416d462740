/// One fuzz target: a name (its seeds are `Tests/Fuzz/seeds/NAME`), what it feeds, and
/// what it does with one input. Any error the code under test throws is an expected
/// answer to bad input; a crash, a trap or a sanitizer report is a finding.
///
/// ```swift
/// static let json = FuzzTarget(name: "json", feeds: "JSON text to the reader") { bytes in
///     _ = try? JSON.parse(bytes: bytes)
/// }
/// ```
struct FuzzTarget: Sendable {
    let name: String
    /// What an input is, for the list `NormFuzz` prints when no target is named.
    let feeds: String
    let run: @Sendable (UnsafeBufferPointer<UInt8>) -> Void

    /// Every target, in the order `make fuzz` runs them.
    static let all: [FuzzTarget] = [json, response, record, snapshot, repl, operation, codegen]
}
