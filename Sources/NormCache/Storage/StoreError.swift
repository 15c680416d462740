/// A store that could not do what it was asked, naming the file and the problem:
/// `/tmp/alice.sqlite: is not a SQLite database`.
///
/// ```swift
/// do { _ = try SQLiteStore(path: "notes.txt") }
/// catch { print(error) }   // notes.txt: is not a SQLite database (nothing was changed)
/// ```
public struct StoreError: Error, Equatable, CustomStringConvertible {
    /// The file the store is over.
    public let path: String
    /// What went wrong, without the path.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
