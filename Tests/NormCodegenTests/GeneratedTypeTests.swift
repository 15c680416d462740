import Foundation
import KitchenSinkTypes
import NormAPI
import NormCache
import TestSupport
import Testing
import TripsAPI

/// Generated types read the engine's values: written through the cache with their own
/// document and read back, decoded with no JSON text in between; written back as data.
@Suite struct GeneratedTypeTests {
    static let tripResponse = """
        {"data": {"trip": {"__typename": "Trip", "id": "2", "name": "Porto", "startsOn": "2026-05-01", "endsOn": null,
          "destination": {"__typename": "Destination", "city": "Porto", "country": "PT"},
          "owner": {"__typename": "User", "id": "1", "name": "Ana"},
          "journeys": [{"__typename": "Journey", "id": "7",
                        "from": {"__typename": "Station", "id": "s1", "name": "Lisboa", "platform": null},
                        "to": {"__typename": "Airport", "code": "OPO", "name": "Porto"}}],
          "reservations": [{"__typename": "Reservation", "id": "r1", "kind": "hotel", "confirmation": "X1"}]}}}
        """

    /// The data of `Query` read back from a cache its response was written into, with the
    /// possible types of `sdl` when given.
    func readBack<Query: GraphQLQuery>(_ query: Query, response: String, sdl: String? = nil) throws -> CacheValue {
        let cache = NormalizedCache()
        let schema = try sdl.map { sdl throws in SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: sdl)) }
        let operation = try cache.operation(Query.operationDocument, name: Query.operationName)
        guard case .object(let variables) = CacheValue(query.__variables) else { throw ResponseDecodingError(problem: "variables are not an object") }
        _ = try cache.write(response: JSON.parse(response), for: operation, variables: variables, schema: schema)
        let read = try cache.read(operation, variables: variables, schema: schema)
        #expect(read.missing == [])
        return try #require(read.data)
    }

    @Test func aQueryReadBackFromTheCache() throws {
        let data = try TripDetailQuery.Data(response: readBack(TripDetailQuery(id: "2"), response: Self.tripResponse))
        let trip = try #require(data.trip)
        // Fields of the spread fragment read as the selection's own, and as the fragment's.
        #expect(trip.name == "Porto")
        #expect(trip.destination?.city == "Porto")
        #expect(trip.fragments.tripHeader.startsOn == "2026-05-01")
        #expect(trip.owner.name == "Ana")
        // Type cases on the union: one per member, the other nil.
        let journey = try #require(trip.journeys.first)
        #expect(journey.from.asStation?.name == "Lisboa")
        #expect(journey.from.asAirport == nil)
        #expect(journey.to.fragments.journeyEndpointFields.asAirport?.code == "OPO")
        #expect(trip.reservations.map(\.confirmation) == ["X1"])
    }

    @Test func dataWrittenBackReadsTheSame() throws {
        let data = try TripDetailQuery.Data(response: readBack(TripDetailQuery(id: "2"), response: Self.tripResponse))
        let again = try TripDetailQuery.Data(response: CacheValue(data.jsonValue))
        #expect(again == data)
    }

    @Test func memberwiseInitializersMakeOptimisticData() throws {
        let header = TripHeader(id: "9", name: "Faro", startsOn: nil, endsOn: nil, destination: nil)
        let created = CreateTripMutation.Data(createTrip: .init(owner: .init(id: "1", name: "Ana"), tripHeader: header))
        #expect(created.createTrip.name == "Faro")
        let json = CacheValue(created.jsonValue)
        #expect(json["createTrip"]?["__typename"] == "Trip")
        #expect(json["createTrip"]?["owner"]?["name"] == "Ana")
        #expect(json["createTrip"]?["destination"] == .null)
        #expect(try CreateTripMutation.Data(response: json) == created)
    }

    @Test func aValueOfTheWrongKindNamesItsPath() throws {
        let wrongKind = try JSON.parse(#"{"trips": [{"__typename": "Trip", "id": "1", "name": 7}]}"#)
        #expect(throws: ResponseDecodingError(path: ["trips", "0", "name"], problem: "expected a string, found an integer")) {
            try TripListQuery.Data(response: wrongKind)
        }
        let missing = try JSON.parse(#"{"trips": [{"id": "1", "name": "a"}, {"id": "2"}]}"#)
        #expect(throws: ResponseDecodingError(path: ["trips", "1", "name"], problem: "missing")) {
            try TripListQuery.Data(response: missing)
        }
    }

    @Test func variablesLeaveOutWhatIsNotGiven() {
        #expect(CacheValue(PeopleQuery(withSeats: true).__variables) == ["withSeats": true])
        #expect(CacheValue(PeopleQuery(first: 3, cabin: .init(.firstClass), withSeats: false).__variables)
                == ["first": 3, "cabin": "FIRST_CLASS", "withSeats": false])
        let request = SinkSchema.SeatRequest(cabin: .init(.premiumEconomy), near: ["4A"], passenger: .init(name: "Ana"))
        #expect(CacheValue(RequestSeatMutation(request: request).__variables)
                == ["request": ["cabin": "PREMIUM_ECONOMY", "near": ["4A"], "passenger": ["name": "Ana"]]])
    }

    @Test func enumsKeepValuesTheSchemaGainedLater() throws {
        let people = try PeopleQuery.Data(response: JSON.parse("""
            {"people": [{"__typename": "Passenger", "id": "1", "name": "Ana", "cabin": "LIE_FLAT", "seats": null, "born": null,
                         "type": "adult", "default": true, "self": "me", "fragments": 2, "jsonValue": 1.5, "data": {"count": 3}},
                        {"__typename": "Crew", "id": "2", "name": "Rui", "role": "pilot"},
                        {"__typename": "Robot", "id": "3", "name": "R2"}],
             "now": "2026-11-24T12:00:00Z"}
            """))
        let passenger = try #require(people.people[0].asPassenger)
        #expect(passenger.cabin == .unknown("LIE_FLAT"))
        #expect(passenger.cabin.value == nil)
        // Names Swift reserves, and names of generated members, are escaped.
        #expect(passenger.default && passenger.self_ == "me" && passenger.fragments_ == 2 && passenger.jsonValue_ == 1.5)
        #expect(passenger.data?.count == 3)
        #expect(passenger.name == "Ana")
        #expect(people.people[1].asCrew?.role == "pilot")
        // A type the code does not know: the person decodes with no type case set, the
        // interfaces' too (a union is declared no interface: `... on Node` is `asNode`).
        #expect(people.people[0].asNode?.id == "1" && people.people[0].asNamed?.fragments.namedFields.name == "Ana")
        #expect(people.people[2].__typename == "Robot" && people.people[2].asPassenger == nil && people.people[2].asCrew == nil)
        #expect(people.people[2].asNode == nil && people.people[2].asNamed == nil)
        #expect(people.now == "2026-11-24T12:00:00Z")
        #expect(SinkSchema.Cabin.allCases.map(\.rawValue) == ["ECONOMY", "PREMIUM_ECONOMY", "FIRST_CLASS", "DEFAULT", "OLD"])
        #expect(SinkSchema.Cabin.default.rawValue == "DEFAULT")
    }

    @Test func aConditionalFieldIsOptionalAndMayBeAbsent() throws {
        let people = try PeopleQuery.Data(response: JSON.parse("""
            {"people": [{"__typename": "Passenger", "id": "1", "name": "Ana", "cabin": "ECONOMY", "born": null,
                         "type": null, "default": false, "self": null, "fragments": null, "jsonValue": null, "data": null}],
             "now": "2026-11-24T12:00:00Z"}
            """))
        #expect(people.people[0].asPassenger?.seats == nil)
    }

    static let crowdResponse = """
        {"data": {"people": [
            {"__typename": "Passenger", "kind": "Passenger", "asPassenger": "Passenger", "namedFields": "Passenger", "name": "Ana",
             "nick": {"__typename": "Nick", "short": "A"}, "id": "1", "cabin": "ECONOMY", "data": {"__typename": "Meta", "count": 2}},
            {"__typename": "Crew", "kind": "Crew", "asPassenger": "Crew", "namedFields": "Crew", "name": "Rui",
             "nick": {"__typename": "Nick", "short": "R", "long": "Rui Costa"}},
            {"__typename": "Robot", "kind": "Robot", "asPassenger": "Robot", "namedFields": "Robot", "name": "R2", "nick": null}],
          "sinkSchema": {"__typename": "Trip", "id": "3"},
          "node": {"__typename": "Crew", "id": "5", "name": "Eva", "role": "pilot"}}}
        """

    @Test func responseKeysThatMeetGeneratedMembersKeepBoth() throws {
        let sdl = try String(contentsOfFile: ProjectDirectory.repository + "/Tests/Codegen/KitchenSink/schema.graphqls", encoding: .utf8)
        let data = try CrowdQuery.Data(response: readBack(CrowdQuery(), response: Self.crowdResponse, sdl: sdl))
        let ana = data.people[0], rui = data.people[1], robot = data.people[2]
        // `asPassenger`, `namedFields` and `kind` are fields (all `__typename`) beside the
        // type case `asPassenger`, and in `asNamed` beside the fragment `fragments.namedFields`.
        #expect(ana.kind == "Passenger" && ana.asPassenger_ == "Passenger" && ana.namedFields == "Passenger")
        #expect(ana.asNamed?.namedFields_ == "Passenger" && ana.asNamed?.asPassenger == "Passenger")
        #expect(ana.asNamed?.fragments.namedFields.name == "Ana" && ana.asNamed?.name == "Ana")
        // A fragment on an interface spread inside a union member's inline fragment.
        #expect(ana.asPassenger?.fragments.nodeId.id == "1" && ana.asPassenger?.id == "1")
        #expect(ana.asPassenger?.cabin == .case(.economy) && ana.asPassenger?.data?.count == 2)
        #expect(ana.asNamed?.nick?.short == "A" && ana.asCrew == nil)
        // The type case selects more of `nick` than the fragment the other reads it from.
        #expect(rui.asNamed?.nick?.short == "R" && rui.asCrew?.nick?.long == "Rui Costa")
        #expect(robot.asPassenger == nil && robot.asCrew == nil && robot.asNamed == nil && robot.kind == "Robot")
        // A nested type named after the namespace does not hide it.
        #expect(data.sinkSchema?.id == "3")
        // A type case inside a type case.
        #expect(data.node?.asNamed?.name == "Eva" && data.node?.asNamed?.asCrew?.role == "pilot")
        // The type case on `Named` keeps `id`, which the selection names on `Node`.
        #expect(data.node?.asNamed?.id == "5")
        #expect(try CrowdQuery.Data(response: CacheValue(data.jsonValue)) == data)
    }

    static let shiftsResponse = """
        {"data": {"node": {"__typename": "Crew", "id": "5", "name": "Eva", "departs": "2026-11-27T08:00:00Z"},
                  "people": [{"__typename": "Passenger", "name": "Ana"}, {"__typename": "Crew", "name": "Rui", "departs": null}]}}
        """

    @Test func typeCasesOnInterfacesThatOverlapInPart() throws {
        let sdl = try String(contentsOfFile: ProjectDirectory.repository + "/Tests/Codegen/KitchenSink/schema.graphqls", encoding: .utf8)
        let data = try ShiftsQuery.Data(response: readBack(ShiftsQuery(id: "5"), response: Self.shiftsResponse, sdl: sdl))
        // A crew member is named and scheduled: both type cases side by side, and the one
        // written inside the other.
        let crew = try #require(data.node)
        #expect(crew.asNamed?.name == "Eva" && crew.asNamed?.id == "5")
        #expect(crew.asScheduled?.departs == "2026-11-27T08:00:00Z" && crew.asScheduled?.id == "5")
        #expect(crew.asNamed?.asScheduled?.departs == "2026-11-27T08:00:00Z" && crew.asNamed?.asScheduled?.name == "Eva")
        // On the union every member is named today, yet `... on Named` stays a type case
        // (a union is declared no interface); a passenger is not scheduled.
        #expect(data.people[0].asNamed?.name == "Ana" && data.people[0].asScheduled == nil)
        #expect(data.people[1].asNamed?.name == "Rui" && data.people[1].asScheduled?.departs == nil)
        #expect(try ShiftsQuery.Data(response: CacheValue(data.jsonValue)) == data)

        // A trip is scheduled but not named.
        let trip = try ShiftsQuery.Data(response: JSON.parse("""
            {"node": {"__typename": "Trip", "id": "1", "departs": "2026-12-01T10:00:00Z"}, "people": []}
            """))
        #expect(trip.node?.asNamed == nil && trip.node?.asScheduled?.departs == "2026-12-01T10:00:00Z")

        // A member the server added after generation: its `__typename` is no type case's,
        // so it decodes with none set, where merging `name` into the union failed it.
        let added = try ShiftsQuery.Data(response: JSON.parse("""
            {"node": null, "people": [{"__typename": "Visitor"}, {"__typename": "Passenger", "name": "Ana"}]}
            """))
        #expect(added.people.map(\.__typename) == ["Visitor", "Passenger"])
        #expect(added.people[0].asNamed == nil && added.people[0].asScheduled == nil && added.people[1].asNamed?.name == "Ana")
    }

    static let tripsResponse = """
        {"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Porto", "meta": {"__typename": "Meta", "count": 4},
                           "legs": [["a", "b"], null, []]},
                  "trips": [{"__typename": "Trip", "id": "2", "stops": [{"__typename": "Stop", "name": "X", "code": null}, null]}, null],
                  "tripName": {"__typename": "Trip", "id": "2"}, "sendable": {"__typename": "Trip", "id": "4"}}}
        """

    @Test func fragmentsSpreadTwiceOrConditionallyAndMergedFields() throws {
        let query = TripsQuery(first: 2, withMeta: false)
        let data = try TripsQuery.Data(response: readBack(query, response: Self.tripsResponse), variables: CacheValue(query.__variables))
        let trip = try #require(data.trip)
        #expect(trip.name == "Porto" && trip.fragments.tripName.name == "Porto")
        // `meta` from the selection and two fragments: one type with every field.
        #expect(trip.meta?.count == 4 && trip.fragments.tripMeta.meta?.count == 4 && trip.fragments.tripName.meta?.__typename == "Meta")
        // A fragment under @include is the type case of its condition (Apollo iOS's
        // `ifWithMeta`) and an optional `fragments.tripStops`, both nil as $withMeta is false.
        #expect(trip.ifWithMeta == nil && trip.fragments.tripStops == nil)
        #expect(trip.legs == [["a", "b"], nil, []])
        #expect(data.trips?.first??.stops?.first??.name == "X" && data.trips?.first??.stops?[1] == nil && data.trips?[1] == nil)
        #expect(data.tripName?.id == "2" && data.sendable?.id == "4")
        #expect(try TripsQuery.Data(response: CacheValue(data.jsonValue), variables: CacheValue(query.__variables)) == data)

        // Read through the cache with the condition true: the type case and the fragment are set.
        let including = TripsQuery(first: 2, withMeta: true)
        let included = try TripsQuery.Data(response: readBack(including, response: """
            {"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Porto", "meta": null, "stops": [{"__typename": "Stop", "name": "Z", "code": null}],
                               "legs": null}, "trips": null, "tripName": null, "sendable": null}}
            """), variables: CacheValue(including.__variables))
        #expect(included.trip?.ifWithMeta?.stops?.first??.name == "Z" && included.trip?.ifWithMeta?.id == "1")
        #expect(included.trip?.ifWithMeta?.fragments.tripStops.stops?.first??.name == "Z")
        #expect(included.trip?.fragments.tripStops?.stops?.first??.name == "Z")
        #expect(try TripsQuery.Data(response: CacheValue(included.jsonValue), variables: CacheValue(including.__variables)) == included)

        // The variables decide, not the data: with $withMeta false, stops in the data bring
        // in nothing; decoded without variables, $withMeta reads as absent, which is false.
        let withStops = try JSON.parse("""
            {"trip": {"__typename": "Trip", "id": "1", "name": "Porto", "meta": null, "stops": [{"__typename": "Stop", "name": "Y"}], "legs": null},
             "trips": null, "tripName": null, "sendable": null}
            """)
        for excluded in [try TripsQuery.Data(response: withStops, variables: ["withMeta": false]), try TripsQuery.Data(response: withStops)] {
            #expect(excluded.trip?.ifWithMeta == nil && excluded.trip?.fragments.tripStops == nil && excluded.trip?.legs == nil)
        }
        #expect(try TripsQuery.Data(response: withStops, variables: ["withMeta": true]).trip?.ifWithMeta?.stops?.first??.name == "Y")
    }

    /// Conditions as Apollo iOS's executor decides them: by the operation's variables, also
    /// where the data could not tell; literal conditions are decided at generation; a
    /// deferred part is set once the data has it.
    @Test func conditionsAreDecidedByTheVariablesAndDeferredPartsByTheData() throws {
        let response = """
            {"data": {"node": {"__typename": "Crew", "id": "5", "role": "pilot"},
                      "people": [{"__typename": "Passenger", "name": "Ana", "nick": {"__typename": "Nick", "short": "A"}}],
                      "trip": {"__typename": "Trip", "id": "1", "stops": [{"__typename": "Stop", "name": "X"}]}}}
            """
        let query = ConditionsQuery(brief: false, withNick: true)
        let data = try ConditionsQuery.Data(response: readBack(query, response: response), variables: CacheValue(query.__variables))
        // `... @skip(if: $brief) { id }` brings in nothing its parent lacks: only $brief tells.
        #expect(data.node?.ifNotBrief?.id == "5")
        let named = try #require(data.people.first?.asNamed)
        #expect(named.name == "Ana" && named.fragments.namedNick?.nick?.short == "A" && named.ifWithNick?.nick?.short == "A")
        // Deferred parts that have arrived: a type case's, and a fragment spread's.
        #expect(data.node?.asCrew?.fragments.crewRole?.role == "pilot" && data.node?.asCrew?.id == "5")
        #expect(data.trip?.fragments.tripStops?.stops?.first??.name == "X")
        #expect(try ConditionsQuery.Data(response: CacheValue(data.jsonValue), variables: CacheValue(query.__variables)) == data)

        // The same data with $brief true and $withNick false: what they leave out is nil.
        let other = try ConditionsQuery.Data(response: CacheValue(data.jsonValue), variables: ["brief": true, "withNick": false])
        #expect(other.node?.ifNotBrief == nil && other.people.first?.asNamed?.fragments.namedNick == nil && other.people.first?.asNamed?.ifWithNick == nil)
        #expect(other.people.first?.asNamed?.name == "Ana")
        // Without variables each reads as absent, which is false: `@skip` keeps, `@include` leaves out.
        let unvaried = try ConditionsQuery.Data(response: CacheValue(data.jsonValue))
        #expect(unvaried.node?.ifNotBrief?.id == "5" && unvaried.people.first?.asNamed?.fragments.namedNick == nil)

        // Before the deferred parts arrive: pending, nil; what is not deferred is there.
        let early = try ConditionsQuery.Data(response: JSON.parse("""
            {"node": {"__typename": "Crew", "id": "5"}, "people": [], "trip": {"__typename": "Trip", "id": "1"}}
            """), variables: CacheValue(query.__variables))
        #expect(early.node?.asCrew?.id == "5" && early.node?.asCrew?.fragments.crewRole == nil && early.trip?.fragments.tripStops == nil)
        // Its state, as Apollo iOS's `@Deferred` has it.
        #expect(early.node?.asCrew?.fragments.$crewRole == .pending)
        #expect(data.node?.asCrew?.fragments.$crewRole == .fulfilled(.init(id: "5", role: "pilot")))
    }

    @Test func aWrongKindDeepInAListNamesItsPath() throws {
        let legs = try JSON.parse(#"{"trip": {"__typename": "Trip", "id": "1", "name": "P", "meta": null, "legs": [["a"], ["b", 3]]}}"#)
        #expect(throws: ResponseDecodingError(path: ["trip", "legs", "1", "1"], problem: "expected a string, found an integer")) {
            try TripsQuery.Data(response: legs)
        }
        let stops = try JSON.parse(#"{"trips": [null, {"__typename": "Trip", "id": "2", "stops": [{"name": true}]}]}"#)
        #expect(throws: ResponseDecodingError(path: ["trips", "1", "stops", "0", "name"], problem: "expected a string, found a boolean")) {
            try TripsQuery.Data(response: stops)
        }
    }

    @Test func listVariablesOfInputObjectsWithEnumsAndAScalarMutation() throws {
        let filters = [SinkSchema.TripFilter(cabins: [.init(.firstClass), .unknown("LIE_FLAT")]), SinkSchema.TripFilter(name: "Porto")]
        #expect(CacheValue(TripsQuery(filters: filters, first: 3).__variables)
                == ["filters": [["cabins": ["FIRST_CLASS", "LIE_FLAT"]], ["name": "Porto"]], "first": 3])
        // `$first: Int! = 3` may be left out: the server's default applies.
        #expect(CacheValue(TripsQuery().__variables) == [:])
        #expect(CacheValue(PingMutation(times: 2).__variables) == ["times": 2])
        #expect(try PingMutation.Data(response: JSON.parse(#"{"ping": true}"#)).ping)
    }

    /// A deferred inline fragment is its part, named after its label, under `fragments`: nil
    /// until the part arrives; `@defer(if: false)` defers nothing.
    @Test func deferredPartsAreNilUntilTheyArrive() throws {
        let full = try DeferredTripQuery.Data(response: readBack(DeferredTripQuery(id: "1"), response: """
            {"data": {"trip": {"__typename": "Trip", "id": "1", "name": "Porto", "departs": null, "legs": [["a"]]}}}
            """))
        let details = try #require(full.trip?.fragments.tripDetails)
        #expect(details.name == "Porto" && details.departs == nil && details.id == "1" && full.trip?.legs == [["a"]])
        let early = try DeferredTripQuery.Data(response: JSON.parse(#"{"trip": {"__typename": "Trip", "id": "1", "legs": null}}"#))
        #expect(early.trip?.id == "1" && early.trip?.fragments.tripDetails == nil)
        // `id` is not deferred: its absence is a failure.
        #expect(throws: ResponseDecodingError.self) { try DeferredTripQuery.Data(response: JSON.parse(#"{"trip": {"__typename": "Trip", "legs": null}}"#)) }
    }

    /// A `@oneOf` input object is an enum, as Apollo iOS writes it: one case per field,
    /// written as the object of that one field, never null.
    @Test func oneOfInputObjectsAreAnEnumOfTheirFields() throws {
        #expect(CacheValue(PickTripQuery(pick: .name("Porto")).__variables) == ["pick": ["name": "Porto"]])
        #expect(CacheValue(PickTripQuery(pick: .filters([.init(name: "Porto"), .init(cabins: [.init(.firstClass)])])).__variables)
                == ["pick": ["filters": [["name": "Porto"], ["cabins": ["FIRST_CLASS"]]]]])
        #expect(CacheValue(PickTripQuery(pick: .default(true)).__variables) == ["pick": ["default": true]])
        // The variables the cache keys the field by, and the data read back under them.
        let data = try PickTripQuery.Data(response: readBack(PickTripQuery(pick: .id("3")),
                                                             response: #"{"data": {"pickTrip": {"__typename": "Trip", "id": "3"}}}"#))
        #expect(data.pickTrip?.id == "3")
    }
}
