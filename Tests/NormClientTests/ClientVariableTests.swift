import Foundation
import KitchenSinkTypes
import NormAPI
import NormCache
import NormClient
import Testing

/// The client coerces variables to their declared types, and checks them against the
/// endpoint's schema, before it reads, sends or watches: the server gets the values the
/// cache keys hold, and refused ones go nowhere (the transport counts no request).
@Suite struct ClientVariableTests {
    private func setUp() throws -> (Client, FakeTransport, trip: CompiledOperation) {
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "trips", handler: ClientTesting.tripServer(["2": "Porto"]))
        return (client, fake, try client.cache.operation(ClientTesting.tripDetail))
    }

    @Test func theRequestCarriesTheCoercedVariables() async throws {
        let (client, fake, trip) = try setUp()
        // An ID given as an integer is sent, and keyed, as its string.
        let result = try await client.fetch(trip, variables: ["id": 2], from: fake)
        #expect(fake.requests.map(\.variables) == [["id": "2"]])
        #expect(result.data?["trip"]?["name"] == "Porto")
        let again = try await client.fetch(trip, variables: ["id": "2"], from: fake)
        #expect(again.source == .cache)
    }

    @Test func refusedVariablesAreAnErrorThatSendsNothing() async throws {
        let (client, fake, trip) = try setUp()
        for (variables, message) in [
            (CacheObject(), "$id: missing; the operation requires $id: ID!"),
            (["id": 2.5], "$id: ID cannot be 2.5 (a float)"),
            (["id": "2", "name": "Porto"], "$name: not declared by the operation (it declares $id: ID!)"),
        ] as [(CacheObject, String)] {
            await #expect(throws: ClientError.self) { try await client.fetch(trip, variables: variables, policy: .networkOnly, from: fake) }
            do { _ = try await client.fetch(trip, variables: variables, from: fake) } catch {
                guard case .cache(.variable(let error)) = error else { Issue.record("not a variable error: \(error)"); continue }
                #expect(error.description == message)
            }
        }
        #expect(fake.requestCount == 0)
    }

    /// The message of the variable error `body` throws (nil if none), and no request went out.
    private func refusal(_ fake: FakeTransport, _ body: () async throws -> Void) async -> String? {
        defer { #expect(fake.requestCount == 0) }
        do { try await body() } catch {
            guard case .cache(.variable(let error))? = error as? ClientError else { return "not a variable error: \(error)" }
            return error.description
        }
        return nil
    }

    /// The endpoint's schema decides enums, input objects and `@oneOf`, for every policy,
    /// for watches and for a watch's new variables.
    @Test func theEndpointSchemaRefusesWhatItDoesNotTake() async throws {
        let schema = try PossibleTypes(sdl: """
            enum Episode { NEWHOPE EMPIRE JEDI }
            input ReviewInput { stars: Int! commentary: String }
            input SearchInput @oneOf { name: String id: ID }
            type Review { stars: Int! }
            type Query { hero(episode: Episode): String search(by: SearchInput!): [String!]! }
            type Mutation { createReview(episode: Episode, review: ReviewInput!): Review }
            """)
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "starwars", schema: SchemaKnowledge(possibleTypes: schema))
        let hero = try client.cache.operation("query Hero($episode: Episode) { hero(episode: $episode) }")
        let review = try client.cache.operation("mutation Review($episode: Episode, $review: ReviewInput!) { createReview(episode: $episode, review: $review) { stars } }")
        let search = try client.cache.operation("query Search($search: SearchInput!) { search(by: $search) }")
        for policy in [FetchPolicy.cacheFirst, .networkOnly, .noCache, .cacheAndNetwork, .cacheOnly] {
            #expect(await refusal(fake) { _ = try await client.fetch(hero, variables: ["episode": "JEDIX"], policy: policy, from: fake) }
                == #"$episode: "JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        }
        #expect(await refusal(fake) { _ = try await client.fetch(review, variables: ["episode": "JEDI", "review": ["commentary": "Great"]], from: fake) }
            == "$review.stars: missing; ReviewInput requires stars: Int!")
        #expect(await refusal(fake) { _ = try await client.fetch(review, variables: ["review": ["stars": 5, "starz": 5]], from: fake) }
            == "$review.starz: ReviewInput has no field starz (its fields: stars, commentary)")
        #expect(await refusal(fake) { _ = try await client.fetch(search, variables: ["search": ["name": "Luke", "id": "1000"]], from: fake) }
            == "$search: @oneOf SearchInput takes exactly one field, got 2 (name, id)")
        #expect(await refusal(fake) { _ = try client.watch(hero, variables: ["episode": "JEDIX"], from: fake) { _, _ in } }
            == #"$episode: "JEDIX" is not a value of Episode (NEWHOPE, EMPIRE, JEDI)"#)
        // The same values, right, are sent as given.
        fake.respond(to: "Hero", with: ["data": ["hero": "Luke"]])
        _ = try await client.fetch(hero, variables: ["episode": "JEDI"], from: fake)
        #expect(fake.requests.map(\.variables) == [["episode": "JEDI"]])
    }

    /// The typed API goes the same way: a generated enum's unknown value, or a generated
    /// input object the schema refuses, sends nothing.
    @Test func generatedOperationsAreCheckedAlike() async throws {
        let sdl = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Codegen/KitchenSink/schema.graphqls"), encoding: .utf8)
        let client = Client(cache: NormalizedCache())
        let fake = FakeTransport(name: "sink", schema: SchemaKnowledge(possibleTypes: try PossibleTypes(sdl: sdl)))
        #expect(await refusal(fake) { _ = try await client.perform(RequestSeatMutation(request: .init(cabin: .unknown("BUSINESS"))), from: fake) }
            == #"$request.cabin: "BUSINESS" is not a value of Cabin (ECONOMY, PREMIUM_ECONOMY, FIRST_CLASS, DEFAULT, OLD)"#)
        #expect(await refusal(fake) { _ = try await client.fetch(PeopleQuery(cabin: .unknown("BUSINESS"), withSeats: false), from: fake) }
            == #"$cabin: "BUSINESS" is not a value of Cabin (ECONOMY, PREMIUM_ECONOMY, FIRST_CLASS, DEFAULT, OLD)"#)
        #expect(await refusal(fake) { _ = try client.watch(PeopleQuery(cabin: .unknown("BUSINESS"), withSeats: false), from: fake) }
            == #"$cabin: "BUSINESS" is not a value of Cabin (ECONOMY, PREMIUM_ECONOMY, FIRST_CLASS, DEFAULT, OLD)"#)
    }

    @Test func watchesCoerceTheirVariablesAndRefuseBadNewOnes() async throws {
        let (client, fake, trip) = try setUp()
        #expect(throws: ClientError.self) { try client.watch(trip, from: fake) { _, _ in } }
        let events = WatchEvents()
        let watch = try client.watch(trip, variables: ["id": 2], from: fake, onEvent: events.callback)
        await client.settle()
        #expect(watch.variables == ["id": "2"])
        #expect(throws: ClientError.self) { try watch.setVariables(["id": nil]) }
        #expect(watch.variables == ["id": "2"])
        await client.settle()
        #expect(fake.requests.map(\.variables) == [["id": "2"]])
        #expect(events.emissions.map(\.number) == [1])
        watch.cancel()
    }
}
