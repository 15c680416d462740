import NormPluginABI
import Foundation
import TestSupport
import Testing

/// Subscriptions through the ABI's `subscribe` and `unsubscribe`, on the trips plugin: a
/// rename is one `tripRenamed` event; after `unsubscribe` returns no event comes; a request
/// that is not a valid subscription is one error event.
@Suite struct PluginSubscriptionsTests {
    let host = FakeHost()
    let trips: LoadedPlugin

    init() throws {
        trips = try LoadedPlugin.bundled("trips", host: host)
    }

    /// What one subscription's `nc_event_fn` was given: "KIND JSON" each.
    final class EventProbe: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [String] = []
        var events: [String] { lock.withLock { received } }

        static let callback: nc_event_fn = { context, kind, json in
            let probe = Unmanaged<EventProbe>.fromOpaque(context!).takeUnretainedValue()
            probe.lock.withLock { probe.received.append("\(kind) \(json.map { String(cString: $0) } ?? "NULL")") }
        }

        /// Waits until `count` events have come (for at most a minute).
        func wait(for count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while events.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    /// Starts `document` with a probe of its own, retained for good (an event after the test
    /// must find it). `subscribe` blocks until the subscription listens: a thread of its own.
    private func subscribe(_ document: String) async -> EventProbe {
        let probe = EventProbe()
        nonisolated(unsafe) let (plugin, context) = (trips.plugin, Unmanaged.passRetained(probe).toOpaque())
        await onThread { #"{"query": "\#(document)"}"#.withCString { plugin.subscribe(plugin.context, $0, EventProbe.callback, context) } }
        return probe
    }

    private func rename(_ id: String, to name: String) async throws {
        _ = try await trips.query(#"mutation { renameTrip(id: "\#(id)", name: "\#(name)") { id } }"#)
    }

    @Test func aRenameIsOneEventAndUnsubscribeStopsThem() async throws {
        let probe = await subscribe("subscription { tripRenamed { id name } }")
        try await rename("2", to: "Douro")
        try await probe.wait(for: 1)
        #expect(probe.events == [#"0 {"data":{"tripRenamed":{"id":"2","name":"Douro"}}}"#])

        trips.plugin.unsubscribe(trips.plugin.context, Unmanaged.passUnretained(probe).toOpaque())
        try await rename("2", to: "Braga")
        try await Task.sleep(for: .milliseconds(50))
        #expect(probe.events.count == 1, "no event after unsubscribe, and no complete: \(probe.events)")
    }

    @Test func aRequestThatIsNoValidSubscriptionIsOneErrorEvent() async throws {
        let probe = await subscribe("subscription { nope }")
        try await probe.wait(for: 1)
        try await Task.sleep(for: .milliseconds(20))
        #expect(probe.events == [#"2 {"message":"Cannot query field \"nope\" on type \"Subscription\"."}"#])
    }
}
