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
                let id = try await host.watch(TripListQuery())
                return ["watching TripList as watcher \(id)"]
            },
            Command("trips.open", usage: "ID", help: "Watches one trip: header, owner, journeys, reservations.") { [host] arguments in
                let id = try await host.watch(TripDetailQuery(id: arguments[0]))
                return ["watching TripDetail of trip \(arguments[0]) as watcher \(id)"]
            },
            // The renamed trip comes back with its id: its record changes, and every watcher
            // that shows it (list or detail) updates by itself.
            Command("trips.rename", usage: "ID NAME", help: "Renames a trip, optimistically.") { [host] arguments in
                let (id, name) = (arguments[0], arguments[1])
                let renamed = try await host.perform(RenameTripMutation(id: id, name: name),
                                                     optimistic: .init(renameTrip: .init(id: id, name: name)))
                return [renamed.renameTrip?.renamedLine ?? "no trip \(id) to rename"]
            },
            // A new trip is in no list the cache holds: the list is fetched again.
            Command("trips.create", usage: "NAME", help: "Creates a trip.", refetch: ["TripList"]) { [host] arguments in
                let created = try await host.perform(CreateTripMutation(name: arguments[0]))
                return [created.createTrip.createdLine]
            },
            // The deleted trip's record goes from the cache, and the list is fetched again.
            Command("trips.delete", usage: "ID", help: "Deletes a trip.", refetch: ["TripList"]) { [host] arguments in
                let id = arguments[0]
                _ = try await host.perform(DeleteTripMutation(id: id))
                _ = try await host.evict("Trip:\(id)")
                return ["deleted trip \(id)"]
            },
        ]
    }
}

// What the commands print, from the generated types of their mutations.

extension RenameTripMutation.Data.RenameTrip {
    var renamedLine: String { "renamed trip \(id) to \(name)" }
}

extension CreateTripMutation.Data.CreateTrip {
    var createdLine: String { "created trip \(id) named \(name)" }
}
