import NormPluginKit

/// The trips plugin: an in-process trips server (one data set per user, seeded the same at
/// every start), the operations of its views (GraphQL/Operations, generated into Generated/
/// by `normcache codegen --embed-schema`), and the `trips` service with its commands.
@main
struct TripsPlugin: Plugin {
    static let name = "trips"
    static let version = "1.0.0"
    static let schema = TripSchema.sdl
    static let typePolicies = TripSchema.typePolicies
    static let operations = [
        NamedOperation(TripListQuery.self), NamedOperation(TripDetailQuery.self),
        NamedOperation(RenameTripMutation.self), NamedOperation(CreateTripMutation.self), NamedOperation(DeleteTripMutation.self),
    ]

    let resolvers: Resolvers<Environment>
    let services: [any Service]
    let commands: [Command]

    init(environment: Environment) throws {
        let server = TripServer()
        environment.set(server)
        let trips = try TripService(environment: environment)
        resolvers = server.resolvers
        services = [trips]
        commands = trips.commands
    }
}
