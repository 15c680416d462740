import Foundation
import NormCache
import NormClient
import NormEnvironment
import NormPluginHost
import Synchronization
import TestSupport
import Testing

/// A plugin's subscriptions through the host (``PluginEndpoint`` as a
/// `SubscriptionTransport`): the trips plugin's `tripRenamed` hears a rename, the
/// client writes the event under SUBSCRIPTION_ROOT (cause subscription, so watchers emit),
/// and cancelling it unsubscribes in the plugin; a C plugin without `subscribe` is refused
/// by name.
@Suite(.timeLimit(.minutes(2)))
struct PluginSubscriptionTests {
    private func start() throws -> (PluginHost, Client, LoadedPlugin) {
        let client = Client(cache: NormalizedCache())
        let host = PluginHost(client: client, environment: Environment()) { _, _, _ in }
        let trips = try host.load(BuildProducts.directory + "/libnormcache_trips" + PluginHost.librarySuffix)
        return (host, client, trips)
    }

    @Test func aRenameIsAnEventWrittenUnderTheSubscriptionRootThatWatchersHear() async throws {
        let (host, client, trips) = try start()
        defer { host.unloadAll() }
        let list = try host.operation(named: "TripList", of: trips)
        try await client.fetch(list, from: trips.endpoint)
        let causes = Mutex<[ChangeCause]>([])
        let watch = try client.watch(list, policy: .cacheOnly, from: trips.endpoint) { _, event in
            if case .emission(_, let emission) = event { causes.withLock { $0.append(emission.cause) } }
        }
        defer { watch.cancel() }

        let renamed = try client.cache.operation("subscription Renamed { tripRenamed { id name } }")
        let subscription = try await client.subscribe(renamed, over: trips.endpoint)
        // Straight to the plugin's server, past the cache: only the event tells the cache.
        _ = try await trips.endpoint.send(GraphQLRequest(document: #"mutation { renameTrip(id: "2", name: "Douro") { id } }"#))
        var iterator = subscription.makeAsyncIterator()
        guard case .result(let result)? = try await iterator.next() else { Issue.record("no event"); return }
        #expect(result.data == ["tripRenamed": ["__typename": "Trip", "id": "2", "name": "Douro"]])
        #expect(client.cache.record("SUBSCRIPTION_ROOT") == ["tripRenamed": .reference("Trip:2")])
        await client.settle()
        #expect(causes.withLock { $0 }.last == .subscription)

        subscription.cancel()
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheStreamUnsubscribesInThePlugin() async throws {
        let (host, _, trips) = try start()
        defer { host.unloadAll() }
        let request = GraphQLRequest(document: "subscription { tripRenamed { name } }")
        let stopped = try await trips.endpoint.subscribe(request)
        let listening = try await trips.endpoint.subscribe(request)
        let reader = Task { for try await _ in stopped {} }
        reader.cancel()
        _ = try? await reader.value
        _ = try await host.run(command: "trips.rename", arguments: ["2", "Douro"])
        var iterator = listening.makeAsyncIterator()
        guard case .next(let response)? = try await iterator.next() else { Issue.record("no event"); return }
        #expect(response.value == ["data": ["tripRenamed": ["name": "Douro"]]])
    }

    @Test func aCPluginWithoutSubscribeIsRefusedByName() async throws {
        let host = PluginHost(client: Client(cache: NormalizedCache()), environment: Environment()) { _, _, _ in }
        defer { host.unloadAll() }
        let good = try host.load(try CPluginBuilder.library("broken/good.c"))
        await #expect(throws: TransportError.plugin("good has no subscriptions (its nc_plugin leaves subscribe unset)")) {
            _ = try await good.endpoint.subscribe(GraphQLRequest(document: "subscription { greeting }"))
        }
    }

    @Test func unloadingThePluginEndsItsSubscriptions() async throws {
        let (host, _, trips) = try start()
        let events = try await trips.endpoint.subscribe(GraphQLRequest(document: "subscription { tripRenamed { name } }"))
        host.unloadAll()
        await #expect(throws: TransportError.subscription("trips was unloaded")) {
            for try await _ in events {}
        }
    }
}
