import NormPluginKit

/// The `users` service: who is logged in. It follows the app's lifecycle into the donut
/// server, whose data is per user (`logout` drops the user's orders); it keeps no state of
/// its own.
///
/// ```swift
/// let users = try environment.service(UserService.self)
/// await users.handle(.login(user: "ana"))
/// try await users.me().name   // "Ana"
/// ```
final class UserService: Service {
    let domain = "users"
    private let server: DonutServer
    private let api: DonutAPI
    private let log: Log

    init(environment: Environment) throws {
        server = try environment.get(DonutServer.self)
        api = try environment.get(DonutAPI.self)
        log = try environment.get(Log.self)
    }

    func handle(_ event: LifecycleEvent) async {
        await server.follow(event)
    }

    /// The user logged in, from the cache when it holds them (the host clears the cache at
    /// login and logout).
    func me() async throws -> MeQuery.Data.Me {
        try await api.fetch(MeQuery()).me
    }

    var commands: [Command] {
        [
            Command("users.me", help: "The user logged in.") { [self] _ in
                try await log.failure(of: "users.me") {
                    [try await me().line]
                }
            },
        ]
    }
}

// What `users.me` prints, from the generated type of the user.

extension MeQuery.Data.Me {
    /// `Ana (id ana)`
    var line: String { "\(name) (id \(id))" }
}
