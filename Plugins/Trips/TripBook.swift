import NormPluginKit

/// One user's trips: seeded the same way at every start (trips "1" to "3"), new trips
/// numbered on from there.
struct TripBook: Sendable {
    let owner: User
    private(set) var trips: [Trip]
    private var nextID = 4

    init(user: String) {
        owner = User(id: user, name: user)
        trips = Self.seed(owner: owner)
    }

    func trip(id: String) -> Trip? {
        trips.first { $0.id == id }
    }

    mutating func rename(id: String, to name: String) throws -> Trip {
        guard let index = trips.firstIndex(where: { $0.id == id }) else { throw Self.unknown(id) }
        trips[index].name = name
        return trips[index]
    }

    mutating func create(name: String) -> Trip {
        let trip = Trip(id: String(nextID), name: name, owner: owner)
        nextID += 1
        trips.append(trip)
        return trip
    }

    mutating func delete(id: String) throws -> String {
        guard let index = trips.firstIndex(where: { $0.id == id }) else { throw Self.unknown(id) }
        return trips.remove(at: index).id
    }

    private static func unknown(_ id: String) -> PluginError {
        PluginError("no trip with id \(id)")
    }
}
