import Foundation
import NormCache
import NormClient
import NormWebSocketNIO
import TestSupport
import Testing
@testable import Workbench

/// `.subscribe`, `.wait`, `.subscriptions`, `.unsubscribe` (issue 39) against the test
/// GraphQL server's subscriptions (ariadne over WebSocket): events are printed, written
/// into the cache (cause subscription) and reach watchers; every way one ends is said.
@Suite(.graphQLServer, .serialized)
struct SubscribeCommandTests {
    private func start() async throws -> (TestSession, GraphQLServerProcess) {
        let server = try #require(GraphQLServerProcess.current)
        var options = SessionOptions(loadsBundledPlugins: false, endpoint: server.url().absoluteString, mode: .json)
        options.webSocketConnector = NIOWebSocketConnector()
        return (try await TestSession.start(options: options), server)
    }

    /// The messages of the error and warning events in `printed`, a line each.
    private func messages(_ printed: Printed) throws -> String {
        try printed.events.filter { ["error", "warning"].contains($0.string("event")) }.compactMap { $0.string("message") }.joined(separator: "\n")
    }

    @Test func anEventPrintsIsWrittenAndReachesAWatcher() async throws {
        let (bench, server) = try await start()
        try await bench.run(#".watch query Detail { trip(id: "1") { id name } }"#)
        let subscribed = try await bench.run(#".subscribe subscription Renamed { tripRenamed(id: "1") { id name } }"#).event("subscribed")
        #expect(subscribed.int("id") == 1 && subscribed.string("op") == "Renamed")
        #expect(subscribed.string("protocol") == "graphql-transport-ws")
        #expect(subscribed.string("url") == "ws://127.0.0.1:\(server.port)/graphql")
        let listed = try await bench.run(".subscriptions").event("subscriptions")
        #expect(listed["subscriptions"] == [["id": 1, "op": "Renamed", "variables": [:], "events": 0, "url": .string(subscribed.string("url")!)]])

        try await server.renameTrip("1", to: "Lisbon nights")   // another app: the session hears it only through its subscription
        try await bench.run(".wait 1 1", #".expect record Trip:1.name == "Lisbon nights""#)
        let event = try bench.printedSoFar.event("subscription")
        #expect(event.int("id") == 1 && event.int("n") == 1)
        #expect(event["data"] == ["tripRenamed": ["__typename": "Trip", "id": "1", "name": "Lisbon nights"]])
        #expect(try bench.printedSoFar.events("watch").last?.string("cause") == "subscription")

        let ended = try await bench.run(".unsubscribe 1").event("unsubscribed")
        #expect(ended.string("reason") == "stopped (.unsubscribe)" && ended.bool("failed") == false && ended.int("events") == 1)
        #expect(try await bench.run(".subscriptions").event("subscriptions")["subscriptions"] == [])
        #expect(bench.session.failures == 0)
    }

    @Test func howASubscriptionEndsIsSaid() async throws {
        let (bench, _) = try await start()
        try await bench.run(".subscribe subscription Countdown { countdown(from: 2) }")
        // An end before N events is what .wait waits for, as WORKBENCH.md says: no error.
        let short = try await bench.run(".wait 1 3")
        #expect(try messages(short).isEmpty)
        #expect(bench.session.exitStatus == 0)
        #expect(try bench.printedSoFar.events("subscription").compactMap { $0["data"]?["countdown"] } == [2, 1])
        #expect(try bench.printedSoFar.event("unsubscribed").string("reason") == "the server completed it")

        try await bench.run(".subscribe subscription Forbidden { forbidden }", ".wait 2 1")
        let refused = try bench.printedSoFar.events("unsubscribed").last
        #expect(refused?.bool("failed") == true)
        #expect(refused?.string("reason")?.contains("forbidden: this subscription is refused") == true)
    }

    @Test func aDroppedConnectionSaysSoAndComesBack() async throws {
        let (bench, server) = try await start()
        try await bench.run(#".subscribe subscription Renamed { tripRenamed(id: "3") { id name } }"#, "mutation { dropSockets }")
        #expect(await Poll.until(timeout: .seconds(10)) { ((try? messages(bench.printedSoFar)) ?? "").contains("subscribed again") })
        let said = try messages(bench.printedSoFar)
        #expect(said.contains("subscription 1: the connection to ws://127.0.0.1:\(server.port)/graphql dropped (close 1012 service restart); reconnecting in 0.5 seconds (attempt 1)"))
        try await server.renameTrip("3", to: "Algarve once more")
        try await bench.run(".wait 1 1", #".expect record Trip:3.name == "Algarve once more""#)
        #expect(bench.session.failures == 0)
    }

    /// A subscription's start goes through the simulated network as any request does:
    /// offline refuses it, `.network fail` fails it, and each start is a `network` event.
    @Test func theSimulatedNetworkAppliesToAStart() async throws {
        let (bench, _) = try await start()
        let subscribe = ".subscribe subscription Renamed { tripRenamed { id name } }"
        let offline = try await bench.run(".network offline", subscribe)
        #expect(try messages(offline).contains("the network is offline (.network online reconnects)"))
        #expect(try offline.event("network").string("status") == "offline")
        let failed = try await bench.run(".network online", ".network fail 1", subscribe)
        #expect(try messages(failed).contains("an injected failure (.network fail)"))
        let started = try await bench.run(subscribe)
        #expect(try started.event("network").string("op") == "Renamed" && started.event("network").string("status") == "ok")
        #expect(try started.event("subscribed").int("id") == 1)
    }

    @Test func badInputIsNamedAndTheSessionGoesOn() async throws {
        let (bench, _) = try await start()
        let text = try messages(try await bench.run(
            ".subscribe query Trips { trips { id } }", ".subscribe subscription { nope }", ".wait 1 1", ".wait 7 1", ".unsubscribe 7", ".wait 1", ".subscribe"))
        #expect(text.contains("Trips is a query: .subscribe starts subscriptions"))
        // Without the endpoint's schema (a project, .schema) the server's validation says it.
        #expect(text.contains("subscription 1 failed after 0 of 1 events: the subscription ended: Cannot query field 'nope' on type 'Subscription'."))
        #expect(text.contains("no subscription \"7\""))
        #expect(text.contains("no subscription \"7\" running"))
        #expect(text.contains("usage: .wait ID N"))
        #expect(text.contains("usage: .subscribe OPERATION|OP [JSON]"))
        let plugin = try await TestSession.start(plugins: true)
        // The donuts plugin runs the subscription, and its schema has none.
        let refused = try messages(try await plugin.run(".subscribe subscription S { a }", ".wait 1 1"))
        #expect(refused.contains("failed after 0 of 1 events: the subscription ended: donuts: Schema is not configured for subscriptions"))
    }
}

/// `.subscribe` against a server that refuses WebSocket and serves subscriptions over HTTP
/// (`subscriptionSpec=1.0`, as Apollo Router): the session subscribes over HTTP instead.
@Suite(.incrementalServer)
struct MultipartSubscribeCommandTests {
    @Test func aRefusedWebSocketFallsBackToMultipartHTTP() async throws {
        let server = try #require(GraphQLServerProcess.current)
        var options = SessionOptions(loadsBundledPlugins: false, endpoint: server.url().absoluteString, mode: .json)
        options.webSocketConnector = NIOWebSocketConnector()
        let bench = try await TestSession.start(options: options)
        let subscribed = try await bench.run(".subscribe subscription Countdown { countdown(from: 2) }", ".wait 1 2").event("subscribed")
        #expect(subscribed.string("protocol") == "multipart HTTP (subscriptionSpec=1.0)")
        #expect(subscribed.string("url") == server.url().absoluteString)
        #expect(try bench.printedSoFar.events("subscription").compactMap { $0["data"]?["countdown"] } == [2, 1])
        try await bench.run(".wait 1 3")
        #expect(try bench.printedSoFar.events("unsubscribed").last?.string("reason") == "the server completed it")
    }
}
