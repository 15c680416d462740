import NormPluginKit

/// The `trips` service: the commands of the trips views, and the trips server following the
/// user through login and logout.
final class TripService: Service {
    let domain = "trips"
    private let host: Host
    private let server: TripServer

    init(environment: Environment) throws {
        host = try environment.get(Host.self)
        server = try environment.get(TripServer.self)
    }

    func handle(_ event: LifecycleEvent) async {
        await server.follow(event)
    }

    var commands: [Command] {
        [
            Command("trips.list", help: "Watches the list of trips.") { [host] _ in
                let id = try await host.watch(.operation("TripList"))
                return ["watching TripList as watcher \(id)"]
            },
            Command("trips.open", usage: "ID", help: "Watches one trip: header, owner, journeys, reservations.") { [host] arguments in
                let id = try await host.watch(.operation("TripDetail"), variables: ["id": .string(arguments[0])])
                return ["watching TripDetail of trip \(arguments[0]) as watcher \(id)"]
            },
            // The renamed trip comes back with its id: its record changes, and every watcher
            // that shows it (list or detail) updates by itself.
            Command("trips.rename", usage: "ID NAME", help: "Renames a trip, optimistically.") { [self] arguments in
                let (id, name) = (arguments[0], arguments[1])
                let trip = try await run(
                    "RenameTrip", variables: ["id": .string(id), "name": .string(name)],
                    optimistic: ["renameTrip": ["__typename": "Trip", "id": .string(id), "name": .string(name)]]
                )["renameTrip"]
                return ["renamed trip \(id) to \(trip["name"].string ?? name)"]
            },
            // A new trip is in no list the cache holds: the list is fetched again.
            Command("trips.create", usage: "NAME", help: "Creates a trip.", refetch: ["TripList"]) { [self] arguments in
                let trip = try await run("CreateTrip", variables: ["name": .string(arguments[0])])["createTrip"]
                return ["created trip \(trip["id"].string ?? "?") named \(arguments[0])"]
            },
            // The deleted trip's record goes from the cache, and the list is fetched again.
            Command("trips.delete", usage: "ID", help: "Deletes a trip.", refetch: ["TripList"]) { [self] arguments in
                let id = arguments[0]
                _ = try await run("DeleteTrip", variables: ["id": .string(id)])
                _ = try await host.evict("Trip:\(id)")
                return ["deleted trip \(id)"]
            },
        ]
    }

    /// Runs a mutation of the manifest from the network and returns its data, or throws its
    /// first GraphQL error.
    private func run(_ operation: String, variables: Map, optimistic: Map? = nil) async throws -> Map {
        try await host.data(.operation(operation), variables: variables, policy: .networkOnly, optimistic: optimistic)
    }
}
