import Foundation
import Testing

/// The trips plugin as the host loads it (``LoadedPlugin/bundled(_:host:)``).
@Suite struct TripsPluginTests {
    let host = FakeHost()
    let trips: LoadedPlugin

    init() throws {
        trips = try Self.start(host: host)
    }

    static func start(host: FakeHost) throws -> LoadedPlugin {
        try LoadedPlugin.bundled("trips", host: host)
    }

    func query(_ document: String, _ variables: String = "{}", of trips: LoadedPlugin? = nil) async throws -> String {
        try await (trips ?? self.trips).query(document, variables)
    }

    func operation(_ name: String) throws -> String {
        try trips.operation(name)
    }

    static let tripList = #"{"data":{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto"},{"__typename":"Trip","id":"3","name":"Kyoto"}]}}"#

    @Test func manifest() throws {
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(trips.manifest.utf8)) as? [String: Any])
        #expect(trips.name == "trips" && trips.version == "1.0.0")
        #expect(manifest["typePolicies"] as? [String: [String]] == ["Airport": ["code"], "Destination": []])
        #expect((manifest["operations"] as? [String: String]).map { Set($0.keys) }
            == ["TripList", "TripDetail", "RenameTrip", "CreateTrip", "DeleteTrip"])
        #expect(manifest["services"] as? [[String: String]] == [["domain": "trips", "name": "TripService"]])
        let commands = try #require(manifest["commands"] as? [[String: Any]])
        #expect(commands.map { "\($0["name"]!) \($0["usage"]!) → \($0["refetch"]!)" } == [
            "trips.list  → []", "trips.open ID → []", "trips.rename ID NAME → []",
            "trips.create NAME → [\"TripList\"]", "trips.delete ID → [\"TripList\"]",
        ])
        #expect(try operation("TripDetail").contains("fragment TripHeader on Trip"))
    }

    @Test func seedDataIsTheSameAtEveryStart() async throws {
        let (list, detail) = (try operation("TripList"), try operation("TripDetail"))
        let seed = [try await query(list), try await query(detail, #"{"id": "1"}"#)]
        // What the first start did to its data, the second start does not see.
        _ = try await query(operation("RenameTrip"), #"{"id": "1", "name": "Lisboa"}"#)
        _ = try await query(operation("DeleteTrip"), #"{"id": "2"}"#)
        #expect(try await query(list) != seed[0])
        trips.destroy()
        let second = try Self.start(host: host)
        defer { second.destroy() }
        #expect([try await query(list, of: second), try await query(detail, #"{"id": "1"}"#, of: second)] == seed)
        #expect(seed[0] == Self.tripList)
        #expect(seed[1] == """
            {"data":{"trip":{"__typename":"Trip","id":"1","name":"Lisbon","startsOn":"2025-05-02","endsOn":"2025-05-06",\
            "destination":{"__typename":"Destination","city":"Lisbon","country":"Portugal"},"owner":{"__typename":"User","id":"default","name":"default"},\
            "journeys":[{"__typename":"Journey","id":"j1","from":{"__typename":"Airport","code":"CDG","name":"Paris Charles de Gaulle"},\
            "to":{"__typename":"Airport","code":"LIS","name":"Lisbon Humberto Delgado"}},\
            {"__typename":"Journey","id":"j2","from":{"__typename":"Station","id":"st-oriente","name":"Lisboa Oriente","platform":"4"},\
            "to":{"__typename":"Station","id":"st-sintra","name":"Sintra","platform":null}}],\
            "reservations":[{"__typename":"Reservation","id":"r1","kind":"hotel","confirmation":"LIS-4821"},{"__typename":"Reservation","id":"r2","kind":"restaurant","confirmation":null}]}}}
            """)
        #expect(try await query("{ trip(id: 9) { id } }", of: second) == #"{"data":{"trip":null}}"#)
    }

    @Test func mutations() async throws {
        #expect(try await query(operation("CreateTrip"), #"{"name": "Berlin"}"#) == """
            {"data":{"createTrip":{"__typename":"Trip","id":"4","name":"Berlin","startsOn":null,"endsOn":null,\
            "destination":null,"owner":{"__typename":"User","id":"default","name":"default"}}}}
            """)
        #expect(try await query(#"mutation { createTrip(name: "Oslo") { id } }"#) == #"{"data":{"createTrip":{"id":"5"}}}"#)
        #expect(try await query(operation("RenameTrip"), #"{"id": "2", "name": "Porto Alegre"}"#)
            == #"{"data":{"renameTrip":{"__typename":"Trip","id":"2","name":"Porto Alegre"}}}"#)
        #expect(try await query(operation("DeleteTrip"), #"{"id": "4"}"#) == #"{"data":{"deleteTrip":"4"}}"#)
        #expect(try await query(operation("DeleteTrip"), #"{"id": "9"}"#)
            == #"{"data":{"deleteTrip":null},"errors":[{"message":"no trip with id 9","locations":[{"line":2,"column":3}],"path":["deleteTrip"]}]}"#)
        #expect(try await query(operation("TripList"))
            == #"{"data":{"trips":[{"__typename":"Trip","id":"1","name":"Lisbon"},{"__typename":"Trip","id":"2","name":"Porto Alegre"},{"__typename":"Trip","id":"3","name":"Kyoto"},{"__typename":"Trip","id":"5","name":"Oslo"}]}}"#)
    }

    @Test func dataIsPerUser() async throws {
        let renamed = #"{"data":{"trips":[{"__typename":"Trip","id":"1","name":"Lisboa"},{"__typename":"Trip","id":"2","name":"Porto"},{"__typename":"Trip","id":"3","name":"Kyoto"}]}}"#
        _ = try await query(operation("RenameTrip"), #"{"id": "1", "name": "Lisboa"}"#)
        await trips.lifecycle(#"{"event": "login", "user": "ana"}"#)
        try await eventually { try await query("{ trip(id: 1) { owner { id } } }") == #"{"data":{"trip":{"owner":{"id":"ana"}}}}"# }
        #expect(try await query(operation("TripList")) == Self.tripList)
        await trips.lifecycle(#"{"event": "login", "user": "default"}"#)
        try await eventually { try await query(operation("TripList")) == renamed }
        await trips.lifecycle(#"{"event": "logout"}"#)
        try await eventually { try await query(operation("TripList")) == Self.tripList }
    }

    @Test func listAndOpenWatch() async throws {
        #expect(try await trips.command("trips.list") == (true, #"{"output":["watching TripList as watcher 7"]}"#))
        #expect(try await trips.command("trips.open", "2") == (true, #"{"output":["watching TripDetail of trip 2 as watcher 7"]}"#))
        #expect(host.received == [
            #"watch {"operation":"TripList","variables":{}}"#,
            #"watch {"operation":"TripDetail","variables":{"id":"2"}}"#,
        ])
    }

    @Test func renameRunsOptimistically() async throws {
        host.reply(to: "run", with: (true, #"{"data":{"renameTrip":{"__typename":"Trip","id":"2","name":"Porto Alegre"}},"source":"network"}"#))
        #expect(try await trips.command("trips.rename", "2", "Porto Alegre") == (true, #"{"output":["renamed trip 2 to Porto Alegre"]}"#))
        #expect(host.received == [#"""
            run {"operation":"RenameTrip","variables":{"id":"2","name":"Porto Alegre"},"policy":"network-only",\#
            "optimistic":{"renameTrip":{"__typename":"Trip","id":"2","name":"Porto Alegre"}}}
            """#])
        #expect(try await trips.command("trips.rename", "2") == (false, #"{"message":"usage: trips.rename ID NAME"}"#))
    }

    @Test func createAndDelete() async throws {
        // The reply is decoded into CreateTripMutation.Data: it has every field the mutation selects.
        host.reply(to: "run", with: (true, #"""
            {"data":{"createTrip":{"__typename":"Trip","id":"4","name":"Berlin","startsOn":null,"endsOn":null,"destination":null,\#
            "owner":{"__typename":"User","id":"default","name":"default"}}}}
            """#))
        #expect(try await trips.command("trips.create", "Berlin") == (true, #"{"output":["created trip 4 named Berlin"]}"#))
        host.reply(to: "run", with: (true, #"{"data":{"deleteTrip":"3"}}"#))
        #expect(try await trips.command("trips.delete", "3") == (true, #"{"output":["deleted trip 3"]}"#))
        #expect(host.received == [
            #"run {"operation":"CreateTrip","variables":{"name":"Berlin"},"policy":"network-only"}"#,
            #"run {"operation":"DeleteTrip","variables":{"id":"3"},"policy":"network-only"}"#,
            #"evict {"key":"Trip:3"}"#,
        ])
        host.reply(to: "run", with: (true, #"{"data":{"deleteTrip":null},"errors":[{"message":"no trip with id 9","path":["deleteTrip"]}]}"#))
        #expect(try await trips.command("trips.delete", "9") == (false, #"{"message":"no trip with id 9"}"#))
    }
}
