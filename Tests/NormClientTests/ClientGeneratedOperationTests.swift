import Foundation
import KitchenSinkTypes
import NormAPI
import NormCache
import NormClient
import Testing
import TripsAPI

/// The typed API: generated operations in, generated data out, through the same policies,
/// cache and watchers as the untyped API.
@Suite struct ClientGeneratedOperationTests {
    static let trips: CacheValue = ["data": ["trips": [["__typename": "Trip", "id": "1", "name": "Lisbon"],
                                                       ["__typename": "Trip", "id": "2", "name": "Porto"]]]]

    private func setUp() -> (Client, FakeTransport) {
        let fake = FakeTransport(name: "trips")
        fake.respond(to: "TripList", with: Self.trips)
        fake.respond(to: "RenameTrip", with: ["data": ["renameTrip": ["__typename": "Trip", "id": "2", "name": "Faro"]]])
        return (Client(cache: NormalizedCache()), fake)
    }

    @Test func aFetchReturnsTheGeneratedDataWithItsSource() async throws {
        let (client, fake) = setUp()
        let first = try await client.fetch(TripListQuery(), from: fake)
        #expect(first.source == .network)
        #expect(first.data?.trips.map(\.name) == ["Lisbon", "Porto"])
        let second = try await client.fetch(TripListQuery(), policy: .cacheOnly, from: fake)
        #expect(second.source == .cache)
        #expect(second.data == first.data)
        #expect(fake.requests.count == 1)
        #expect(fake.requests.first?.document == TripListQuery.operationDocument)
    }

    /// `@include` / `@skip` in the typed data are decided by the operation's variables, as
    /// Apollo iOS decides them: the same records read under other variables set other type
    /// cases and fragments, also where the data could not tell.
    @Test func conditionsFollowTheOperationsVariables() async throws {
        let sdl = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Codegen/KitchenSink/schema.graphqls"), encoding: .utf8)
        let fake = FakeTransport(name: "sink", schema: SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: sdl)))
        fake.respond(to: "Conditions", with: ["data": [
            "node": ["__typename": "Crew", "id": "5", "role": "pilot"],
            "people": [["__typename": "Passenger", "name": "Ana", "nick": ["__typename": "Nick", "short": "A"]]],
            "trip": ["__typename": "Trip", "id": "1", "stops": []]]])
        let client = Client(cache: NormalizedCache())
        let fetched = try #require(try await client.fetch(ConditionsQuery(brief: false, withNick: true), from: fake).data)
        #expect(fetched.node?.ifNotBrief?.id == "5" && fetched.node?.asCrew?.fragments.crewRole?.role == "pilot")
        #expect(fetched.people.first?.asNamed?.fragments.namedNick?.nick?.short == "A" && fetched.people.first?.asNamed?.ifWithNick != nil)

        let other = try #require(try await client.fetch(ConditionsQuery(brief: true, withNick: false), policy: .cacheOnly, from: fake).data)
        #expect(other.node?.id == "5" && other.node?.ifNotBrief == nil)
        #expect(other.people.first?.asNamed?.name == "Ana" && other.people.first?.asNamed?.fragments.namedNick == nil)

        // Under no true variable (decoded as it stands): the @skip keeps, the @include leaves out.
        let neither = try #require(try await client.fetch(ConditionsQuery(brief: false, withNick: false), policy: .cacheOnly, from: fake).data)
        #expect(neither.node?.ifNotBrief?.id == "5" && neither.people.first?.asNamed?.fragments.namedNick == nil)

        let watch = try client.watch(ConditionsQuery(brief: true, withNick: true), policy: .cacheOnly, from: fake)
        var updates = watch.makeAsyncIterator()
        let first = try #require(await updates.next()?.data)
        #expect(first.node?.ifNotBrief == nil && first.people.first?.asNamed?.ifWithNick?.nick?.short == "A")
        watch.cancel()
    }

    @Test func aCacheOnlyMissNamesTheMissingFields() async throws {
        let (client, fake) = setUp()
        await #expect(throws: ClientError.self) { try await client.fetch(TripDetailQuery(id: "3"), policy: .cacheOnly, from: fake) }
        do {
            _ = try await client.fetch(TripDetailQuery(id: "3"), policy: .cacheOnly, from: fake)
        } catch {
            #expect(error.cachedResult?.missing == ["QUERY_ROOT.trip(id:3)"])
        }
    }

    @Test func aMutationShowsItsTypedOptimisticDataUntilTheServerAnswers() async throws {
        let (client, fake) = setUp()
        _ = try await client.fetch(TripListQuery(), from: fake)
        fake.hold()
        let rename = Task {
            try await client.perform(RenameTripMutation(id: "2", name: "Faro"),
                                     optimistic: .init(renameTrip: .init(id: "2", name: "Faro (saving)")), from: fake)
        }
        #expect(await fake.waitUntil { $0.waiting == 1 })
        #expect(try await client.fetch(TripListQuery(), policy: .cacheOnly, from: fake).data?.trips.last?.name == "Faro (saving)")
        fake.release()
        let result = try await rename.value
        #expect(result.data?.renameTrip?.name == "Faro")
        #expect(try await client.fetch(TripListQuery(), policy: .cacheOnly, from: fake).data?.trips.last?.name == "Faro")
    }

    @Test func aWatchIsASequenceOfTypedUpdatesWithTheirCauses() async throws {
        let (client, fake) = setUp()
        _ = try await client.fetch(TripListQuery(), from: fake)
        let watch = try client.watch(TripListQuery(), from: fake)
        var updates = watch.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.cause == .initial)
        #expect(first?.data?.trips.count == 2)
        _ = try await client.perform(RenameTripMutation(id: "2", name: "Faro"), from: fake)
        let second = await updates.next()
        #expect(second?.cause == .write)
        #expect(second?.data?.trips.map(\.name) == ["Lisbon", "Faro"])
        watch.cancel()
        #expect(await updates.next() == nil)
        #expect(client.activeWatches.isEmpty)
    }

    /// Under Apollo iOS's semantics a clear is not told to watchers: the typed sequence
    /// yields nothing for it, and its next update is the next change it hears.
    @Test func aChangeTheWatcherDoesNotHearIsNoUpdate() async throws {
        let (client, fake) = setUp()
        _ = try await client.fetch(TripListQuery(), from: fake)
        let watch = try client.watch(TripListQuery(), policy: .cacheOnly, from: fake)
        var updates = watch.makeAsyncIterator()
        #expect(await updates.next()?.cause == .initial)
        try client.cache.clear()
        fake.respond(to: "TripList", with: ["data": ["trips": [["__typename": "Trip", "id": "3", "name": "Faro"]]]])
        _ = try await client.fetch(TripListQuery(), policy: .networkOnly, from: fake)
        let next = await updates.next()
        #expect(next?.cause == .write, "the clear yielded no update")
        #expect(next?.data?.trips.map(\.name) == ["Faro"])
        watch.cancel()
    }

    @Test func dataThatDoesNotFitTheTypesIsADecodingError() async throws {
        let (client, fake) = setUp()
        fake.respond(to: "TripList", with: ["data": ["trips": [["__typename": "Trip", "id": "1", "name": 7]]]])
        await #expect(throws: ClientError.decoding(ResponseDecodingError(path: ["trips", "0", "name"], problem: "expected a string, found an integer"))) {
            try await client.fetch(TripListQuery(), from: fake)
        }
    }
}
