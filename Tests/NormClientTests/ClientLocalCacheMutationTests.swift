import KitchenSinkTypes
import NormAPI
import NormCache
import NormClient
import Testing

/// `Client.update`: a generated local cache mutation read from the cache, changed in a
/// closure and written back in one commit, with nothing sent (Apollo iOS's
/// `ReadWriteTransaction.update(_:_:)`), and `Client.write(data:for:)`, the untyped write
/// the workbench's `.run NAME --write DATA` makes.
@Suite struct ClientLocalCacheMutationTests {
    typealias Local = LocalTripsLocalCacheMutation

    /// The data of `LocalTrips`, as its document selects it.
    static let data: CacheObject = [
        "trips": [["__typename": "Trip", "id": "1", "name": "Lisbon", "meta": ["__typename": "Meta", "count": 2],
                   "stops": [["__typename": "Stop", "name": "Rossio"]]],
                  ["__typename": "Trip", "id": "2", "name": "Porto", "meta": nil, "stops": nil]],
        "people": [["__typename": "Crew", "id": "c1", "name": "Rui", "role": "Pilot"],
                   ["__typename": "Passenger", "id": "p1", "name": "Ana", "cabin": "ECONOMY", "seats": ["1A"], "nick": nil]],
        "node": ["__typename": "Passenger", "id": "p9", "cabin": "ECONOMY"],   // not people's p1: one record, one place
    ]

    private func setUp(seed: CacheObject = data, with document: String = Local.operationDocument) throws -> (Client, CompiledOperation) {
        let client = Client(cache: NormalizedCache())   // no endpoint: nothing can be sent
        let seeding = try client.cache.operation(document)
        try client.write(data: seed, for: seeding)
        return (client, try client.cache.operation(Local.operationDocument, name: Local.operationName))
    }

    private func read(_ client: Client, _ document: String) throws -> CacheValue? {
        try client.cachedResult(of: client.cache.operation(document)).data
    }

    @Test func theGeneratedTypesAreMutable() {
        // The conformances say it; a `let` here would not compile.
        var trip = Local.Data.Trip(id: "9", name: "Faro", meta: nil, stops: nil, tripStops: .init(stops: nil))
        trip.name = "Tavira"
        trip.meta = .init(count: 1)
        #expect(trip.jsonValue == .object(["__typename": .string("Trip"), "id": .string("9"), "name": .string("Tavira"),
                                           "meta": .object(["__typename": .string("Meta"), "count": .int(1)]), "stops": .null]))
        var seats = PassengerSeats(cabin: .init(.economy), seats: nil, nick: nil)
        seats.seats = ["2C"]
        #expect(seats.jsonValue.member("seats") == .list([.string("2C")]))
    }

    /// What a mutable selection set writes: its own fields as they are, and from its
    /// read-only copies only the members it lacks. Merged item by item instead, the copy's
    /// `wingspan` of the bird that was first would land on the dog now first.
    @Test func aCopyOnlyAddsTheMembersTheSetLacks() {
        let bird: JSONValue = .object(["id": .string("2")]), dog: JSONValue = .object(["id": .string("1")])
        let own: JSONValue = .object(["id": .string("9"), "friends": .list([dog, bird])])   // reordered
        let copy: JSONValue = .object(["id": .string("9"), "friends": .list([.object(["id": .string("2"), "wingspan": .double(1)]), dog]),
                                       "wingspan": .double(3)])
        #expect(JSONValue.merging(own, newMembersOf: [copy])
                == .object(["id": .string("9"), "friends": .list([dog, bird]), "wingspan": .double(3)]))
        #expect(JSONValue.merging(.null, newMembersOf: [copy]) == .null)
    }

    @Test func anUpdateWritesTheChangedDataBackAndSendsNothing() throws {
        let (client, _) = try setUp()
        var seen: Local.Data?
        try client.update(Local()) { data in
            seen = data
            data.trips?[0]?.name = "Lisboa"
            data.trips?[0]?.meta?.count = 3
            data.trips?.removeLast()
        }
        #expect(seen?.trips?.map { $0?.name } == ["Lisbon", "Porto"])
        #expect(try read(client, "{ trips(first: 5) { id name meta { count } } }")
                == ["trips": [["__typename": "Trip", "id": "1", "name": "Lisboa", "meta": ["__typename": "Meta", "count": 3]]]])
        #expect(client.network.requestCount == 0)
    }

    @Test func aFieldFromAFragmentIsSetAsItsOwnAndACopyNeverWinsOverIt() throws {
        let (client, _) = try setUp()
        try client.update(Local()) { data in
            // `stops` came through the fragment TripStops; its copy in `fragments` still has Rossio.
            data.trips?[0]?.stops = [.init(name: "Oriente")]
            #expect(data.trips?[0]?.fragments.tripStops.stops?.map { $0?.name } == ["Rossio"])
        }
        #expect(try read(client, "{ trips(first: 5) { id stops { name } } }")?["trips"]?.listValue?.first?["stops"]
                == [["__typename": "Stop", "name": "Oriente"]])
    }

    @Test func aTypeCaseIsChangedThroughMutateIfFulfilled() throws {
        let (client, _) = try setUp()
        try client.update(Local()) { data in
            #expect(try data.people[0].mutateIfFulfilled(\.asCrew) { $0.role = "Purser"; $0.name = "Rui M." })
            #expect(try !data.people[0].mutateIfFulfilled(\.asPassenger) { _ in Issue.record("Rui is no passenger") })
            #expect(data.people[0].asNamed?.name == "Rui M.", "the other views are decoded again from the change")
            try data.people[1].mutateIfFulfilled(\.asPassenger) { $0.cabin = .init(.firstClass) }
        }
        #expect(try read(client, "{ people { ... on Crew { name role } ... on Passenger { cabin } } }")
                == ["people": [["__typename": "Crew", "name": "Rui M.", "role": "Purser"], ["__typename": "Passenger", "cabin": "FIRST_CLASS"]]])
    }

    /// `mutateIfFulfilled` starts from the data as it is now: a field of the parent set
    /// before it is kept, and every view of the parent shows the case's change.
    @Test func mutateIfFulfilledKeepsWhatWasSetBefore() throws {
        var node = Local.Data.Node(__typename: "Passenger", id: "p1", asPassenger: .init(id: "p1", cabin: .init(.economy)))
        node.id = "p2"
        #expect(try node.mutateIfFulfilled(\.asPassenger) { $0.cabin = .init(.firstClass) })
        #expect(node.id == "p2")
        #expect(node.asPassenger?.id == "p2")
        #expect(node.asPassenger?.cabin == .init(.firstClass))
        #expect(node.jsonValue == .object(["__typename": .string("Passenger"), "id": .string("p2"), "cabin": .string("FIRST_CLASS")]))
    }

    /// `write(data:for:)` writes typed data without reading first (Apollo's
    /// `ReadWriteTransaction.write(data:for:)`): what an empty cache needs before `update`.
    @Test func typedDataIsWrittenWithoutReading() throws {
        let client = Client(cache: NormalizedCache())
        #expect(throws: ClientError.self) { try client.update(Local()) { _ in Issue.record("nothing to read") } }
        let trip = Local.Data.Trip(id: "1", name: "Lisbon", meta: nil, stops: [.init(name: "Rossio")], tripStops: .init(stops: [.init(name: "Rossio")]))
        try client.write(data: Local.Data(trips: [trip], people: [], node: nil), for: Local())
        try client.update(Local()) { $0.trips?[0]?.name = "Faro" }
        #expect(try read(client, "{ trips(first: 5) { name stops { name } } node(id: \"p1\") { id } }")
                == ["trips": [["__typename": "Trip", "name": "Faro", "stops": [["__typename": "Stop", "name": "Rossio"]]]], "node": nil])
        #expect(client.network.requestCount == 0)
    }

    @Test func watchersHearTheUpdateAsAWrite() async throws {
        let (client, _) = try setUp()
        let events = WatchEvents()
        let watch = try client.watch(client.cache.operation("query Names { trips(first: 5) { id name } }"), policy: .cacheOnly,
                                     onEvent: events.callback)
        await client.settle()
        try client.update(Local()) { $0.trips?[1]?.name = "Oporto" }
        await client.settle()
        #expect(events.causes == [.initial, .write])
        #expect(events.emissions.last?.data?["trips"]?.listValue?.last?["name"] == "Oporto")
        watch.cancel()
    }

    @Test func anOptionalFieldTheCacheLacksReadsNilAndStaysAbsent() throws {
        // Seeded without trips' meta: the update reads it as nil and must not write null.
        let seed: CacheObject = ["trips": [["__typename": "Trip", "id": "1", "name": "Lisbon", "stops": nil]],
                                 "people": []]
        let (client, _) = try setUp(seed: seed, with: "query Seed { trips(first: 5) { id name stops { name } } people { __typename } }")
        try client.update(Local()) { data in
            #expect(data.trips?[0]?.meta == nil)
            data.trips?[0]?.name = "Lisboa"
        }
        #expect(client.cache.record("Trip:1")?["name"] == "Lisboa")
        #expect(client.cache.record("Trip:1")?["meta"] == nil, "absent, not null")
    }

    @Test func aRequiredFieldTheCacheLacksIsAMissAndNothingIsWritten() throws {
        let seed: CacheObject = ["trips": [["__typename": "Trip", "id": "1", "stops": nil, "meta": nil]], "people": []]
        let (client, _) = try setUp(seed: seed, with: "query Seed { trips(first: 5) { id stops { name } meta { count } } people { __typename } }")
        let before = client.cache.record("Trip:1")
        do {
            try client.update(Local()) { _ in Issue.record("the body runs only over data that is there") }
            Issue.record("expected a cache miss")
        } catch let error as ClientError {
            guard case .cacheMiss(let result) = error else { Issue.record("\(error)"); return }
            #expect(result.missing.contains("Trip:1.name"), "\(result.missing)")
        }
        #expect(client.cache.record("Trip:1") == before)
    }

    @Test func aBodyThatThrowsWritesNothing() throws {
        struct Cancelled: Error {}
        let (client, _) = try setUp()
        #expect(throws: Cancelled.self) {
            try client.update(Local()) { data in
                data.trips?[0]?.name = "Lisboa"
                throw Cancelled()
            }
        }
        #expect(client.cache.record("Trip:1")?["name"] == "Lisbon")
    }

    @Test func dataThatDoesNotFitTheSelectionIsRefusedNamingThePathAndNothingIsWritten() throws {
        let (client, local) = try setUp()
        let before = client.cache.keys().map { client.cache.record($0) }
        var trips = Self.data
        trips["trips"] = [["__typename": "Trip", "id": "1", "meta": nil, "stops": nil]]
        #expect(throws: ClientError.self) { try client.write(data: trips, for: local) }
        do { try client.write(data: trips, for: local) } catch {
            #expect("\(error)".contains("missing field \"name\""), "\(error)")
            #expect("\(error)".contains("trips"), "\(error)")
        }
        #expect(client.cache.keys().map { client.cache.record($0) } == before)
    }
}
