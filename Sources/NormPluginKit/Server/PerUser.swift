/// What a plugin's in-process server keeps for each user: made on the user's first
/// request, switched by `login`, dropped by `logout` (the server goes back to the user
/// `default`, and the next request makes that user's data afresh). The server follows the
/// app's lifecycle by handing each event to ``follow(_:)``.
///
/// ```swift
/// actor TripServer {
///     private var books = PerUser { TripBook(user: $0) }
///     func follow(_ event: LifecycleEvent) { books.follow(event) }
///     func trips() -> [Trip] { books.current { $0.trips } }
/// }
/// ```
public struct PerUser<Data> {
    /// The user the server answers for now.
    public private(set) var user = "default"
    private var data: [String: Data] = [:]
    private let make: (_ user: String) -> Data

    /// `make` builds a user's data on their first request.
    public init(_ make: @escaping (_ user: String) -> Data) { self.make = make }

    /// `login` switches the user; `logout` drops the user's data and goes back to `default`.
    public mutating func follow(_ event: LifecycleEvent) {
        switch event {
        case .login(let user): self.user = user
        case .logout:
            data[user] = nil
            user = "default"
        case .foreground: break
        }
    }

    /// Runs `body` on the current user's data, made first if the user has none yet.
    public mutating func current<Result>(_ body: (inout Data) throws -> Result) rethrows -> Result {
        let user = self.user
        return try body(&data[user, default: make(user)])
    }
}
