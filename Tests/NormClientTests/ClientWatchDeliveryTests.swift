import Foundation
import NormCache
import NormClient
import TestSupport
import Testing

/// Where a watcher's callback runs: on the client's event queue, in order, never inside
/// the write that caused the event; `settle()` waits until every event was handed over.
@Suite struct ClientWatchDeliveryTests {
    /// A cache-only watcher of `{ trips { id name } }` over Lisbon, whose callback blocks on
    /// `gate` when it gets emission `blockingAt`.
    private func watcher(blockingAt: Int, on gate: DispatchSemaphore) async throws -> (Client, ClientWatch, WatchEvents) {
        let client = Client()
        let tripList = try client.cache.operation(ClientTesting.tripList)
        try client.cache.write(data: ClientTesting.tripsData([("1", "Lisbon")]), for: tripList)
        let events = WatchEvents()
        let record = events.callback
        let watch = try client.watch(tripList, policy: .cacheOnly) { watch, event in
            record(watch, event)
            if case .emission(blockingAt, _) = event { gate.wait() }
        }
        await client.settle()
        return (client, watch, events)
    }

    /// Writes each name into `Trip:1` on a thread of its own; true when every write returned within 5 s.
    private func writesReturn(_ client: Client, _ names: [String]) async -> Bool {
        let done = LockedBox(false)
        Thread.detachNewThread {
            for name in names { try? client.cache.write(record: "Trip:1", fields: ["name": CacheValue(name)]) }
            done.update { $0 = true }
        }
        return await Poll.until { done.value }
    }

    private func names(_ events: WatchEvents) -> [CacheValue?] {
        events.emissions.map { $0.data?["trips"].flatMap { if case .list(let trips) = $0 { trips.first?["name"] } else { nil } } }
    }

    @Test func aBlockedCallbackHoldsUpNoWriterAndEventsKeepTheirOrder() async throws {
        let gate = DispatchSemaphore(value: 0)
        let (client, watch, events) = try await watcher(blockingAt: 2, on: gate)
        let returned = await writesReturn(client, ["Porto", "Faro", "Braga"])
        #expect(returned, "a write waited for a watch callback")
        #expect(events.emissions.map(\.number) == [1, 2], "the callback of #2 still blocks; #3 and #4 wait behind it")
        #expect(client.isBusy)
        gate.signal()
        await client.settle()
        #expect(events.emissions.map(\.number) == [1, 2, 3, 4])
        #expect(names(events) == ["Lisbon", "Porto", "Faro", "Braga"])
        #expect(!client.isBusy)
        watch.cancel()
    }

    @Test func noEventReachesACancelledWatchersCallback() async throws {
        let gate = DispatchSemaphore(value: 0)
        let (client, watch, events) = try await watcher(blockingAt: 2, on: gate)
        #expect(await writesReturn(client, ["Porto", "Faro"]))
        watch.cancel()
        gate.signal()
        await client.settle()
        #expect(events.emissions.map(\.number) == [1, 2], "#3 was waiting when the watch was cancelled")
    }
}
