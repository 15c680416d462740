import NormPluginKit

/// The server behind the plugin's endpoint: one ``TripBook`` per user, made on the user's
/// first request; `login` switches the user, `logout` drops the user's trips (the next
/// request seeds them again) and goes back to the user `default`. Each renamed trip is
/// published to the `tripRenamed` subscriptions.
actor TripServer {
    private var books = PerUser { TripBook(user: $0) }
    private let renamed = Broadcast<[String: any Sendable]>()

    /// Follows the app's lifecycle: `login` switches the user, `logout` drops their data.
    func follow(_ event: LifecycleEvent) {
        books.follow(event)
    }

    /// The resolvers of the endpoint's root fields.
    nonisolated var resolvers: Resolvers<Environment> {
        Resolvers(
            query: [
                "trips": { _, _ in await self.book { $0.trips.map(\.object) } },
                "trip": { arguments, _ in
                    let id = try arguments["id"].stringValue()
                    return await self.book { $0.trip(id: id)?.object }
                },
            ],
            mutation: [
                "renameTrip": { arguments, _ in
                    let (id, name) = try (arguments["id"].stringValue(), arguments["name"].stringValue())
                    let trip = try await self.book { try $0.rename(id: id, to: name).object }
                    self.renamed.publish(trip)
                    return trip
                },
                "createTrip": { arguments, _ in
                    let name = try arguments["name"].stringValue()
                    return await self.book { $0.create(name: name).object }
                },
                "deleteTrip": { arguments, _ in
                    let id = try arguments["id"].stringValue()
                    return try await self.book { try $0.delete(id: id) }
                },
            ],
            subscription: [
                "tripRenamed": { _, _ in self.renamed.subscribe() },
            ]
        )
    }

    /// Runs `body` on the current user's trips, seeding them first if needed.
    private func book<Result: Sendable>(_ body: (inout TripBook) throws -> Result) rethrows -> Result {
        try books.current(body)
    }
}
