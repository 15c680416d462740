import NormPluginKit
import Testing

/// ``Host`` over a host written in Swift that replies from another thread: each call sends
/// the request the ABI documents and returns the reply's content.
@Suite struct HostTests {
    let fake = FakeHost()
    var host: Host { Host(fake.api()) }

    @Test func runSendsTheRequestAndReturnsTheReply() async throws {
        let reply = try await host.run(.operation("Greeting"), variables: ["name": "Ana"], policy: .networkOnly)
        #expect(reply["data", "greeting", "text"] == "Hello, Ana!")
        #expect(reply["source"] == "network")
        _ = try await host.run(.query("mutation { rename }"), optimistic: ["rename": true])
        #expect(fake.received == [
            #"run {"operation":"Greeting","variables":{"name":"Ana"},"policy":"network-only"}"#,
            #"run {"query":"mutation { rename }","variables":{},"optimistic":{"rename":true}}"#,
        ])
    }

    @Test func watchAndRefetch() async throws {
        #expect(try await host.watch(.operation("TripDetail"), variables: ["id": "2"]) == 7)
        #expect(try await host.refetch(operation: "TripList") == [7])
        #expect(try await host.refetch(watch: 7) == [7])
        #expect(fake.received == [
            #"watch {"operation":"TripDetail","variables":{"id":"2"}}"#,
            #"refetch {"operation":"TripList"}"#,
            #"refetch {"watch":7}"#,
        ])
    }

    @Test func records() async throws {
        let record = try #require(try await host.readRecord("Greeting:1"))
        #expect(record["__typename"] == "Greeting" && record["text"] == "Hello, Ana!")
        #expect(try await host.writeRecord("Greeting:1", fields: ["text": "Hi"]) == ["Greeting:1.text"])
        #expect(try await host.evict("Greeting:1", field: "text") == ["Greeting:1.text"])
        _ = try await host.evict("Greeting:1")
        fake.reply(to: "read_record", with: (true, #"{"record": null}"#))
        #expect(try await host.readRecord("Greeting:2") == nil)
        #expect(fake.received == [
            #"read_record {"key":"Greeting:1"}"#,
            #"write_record {"key":"Greeting:1","fields":{"text":"Hi"}}"#,
            #"evict {"key":"Greeting:1","field":"text"}"#,
            #"evict {"key":"Greeting:1"}"#,
            #"read_record {"key":"Greeting:2"}"#,
        ])
    }

    /// The kit asks the host for a key (the host's key core makes it); it never builds one.
    @Test func entityKeysComeFromTheHost() async throws {
        #expect(try await host.entityKey(type: "Greeting", values: ["1"]) == "Greeting:1")
        fake.reply(to: "entity_key", with: (false, #"{"message": "the request needs \"type\": a string"}"#))
        await #expect(throws: PluginError(#"the request needs "type": a string"#)) {
            try await host.entityKey(type: "", values: ["1"])
        }
        #expect(fake.received == [
            #"entity_key {"type":"Greeting","values":["1"]}"#,
            #"entity_key {"type":"","values":["1"]}"#,
        ])
    }

    /// A generated query's data is decoded from the reply; `get()` throws its first error,
    /// or what a cache read lacked. A reply's numbers come as JSON: a whole one is an integer.
    @Test func fetchDecodesAGeneratedQuerysData() async throws {
        fake.reply(to: "run", with: (true, #"{"data":{"price":150},"source":"cache","missing":[]}"#))
        let menu = try await host.fetch(PriceQuery(), policy: .cacheFirst)
        #expect(menu.data == PriceQuery.Data(price: 150) && menu.source == "cache")
        #expect(try menu.get().price == 150)
        fake.reply(to: "run", with: (true, #"{"data":{"price":1.5},"source":"network"}"#))
        await #expect(throws: ResponseDecodingError(path: ["price"], problem: "expected an integer, found a float")) {
            try await host.fetch(PriceQuery())
        }
        fake.reply(to: "run", with: (true, #"{"data":null,"errors":[{"message":"no menu today"}],"source":"network"}"#))
        await #expect(throws: PluginError("no menu today")) { try await host.fetch(PriceQuery()).get() }
        fake.reply(to: "run", with: (true, #"{"data":null,"source":"cache","missing":["QUERY_ROOT.price"]}"#))
        await #expect(throws: PluginError("no data: the cache lacked QUERY_ROOT.price")) { try await host.fetch(PriceQuery()).get() }
        #expect(fake.received.first == #"run {"operation":"Price","variables":{},"policy":"cache-first"}"#)
    }

    @Test func aFailedReplyThrowsItsMessage() async {
        fake.reply(to: "run", with: (false, #"{"message": "the network is offline"}"#))
        await #expect(throws: PluginError("the network is offline")) { try await host.run(.operation("Greeting")) }
        fake.reply(to: "watch", with: (true, #"{"watching": "?"}"#))
        await #expect(throws: DecodingError.self) { try await host.watch(.operation("Greeting")) }
    }

    @Test func cancellingTheWaitingTaskCancelsTheHostCall() async throws {
        fake.hold("run")
        let host = self.host
        let search = Task { try await host.run(.operation("Search"), variables: ["text": "lis"]) }
        try await eventually { fake.received.count == 1 }
        search.cancel()
        await #expect(throws: CancellationError.self) { try await search.value }
        #expect(fake.received == [#"run {"operation":"Search","variables":{"text":"lis"}}"#, "cancel run"])
    }

    @Test func aTaskCancelledBeforeTheCallCancelsItOnceMade() async throws {
        fake.hold("run")
        let host = self.host
        let search = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await host.run(.operation("Search"))
        }
        await #expect(throws: CancellationError.self) { try await search.value }
        #expect(fake.received == [#"run {"operation":"Search","variables":{}}"#, "cancel run"])
    }

    @Test func logAndState() {
        host.log(.warning, "careful")
        host.emitState(service: "trips", state: .loading)
        host.emitState(service: "trips", state: .error, detail: "offline")
        #expect(fake.received == ["log warning careful", "state trips loading -", "state trips error offline"])
    }
}

/// A query as `normcache codegen` writes one, by hand: one integer field.
private struct PriceQuery: GraphQLQuery {
    typealias Schema = PriceSchema
    static let operationName = "Price"
    static let operationDocument = "query Price { price }"

    struct Data: NormAPI.SelectionSet {
        let price: Int

        init(price: Int) { self.price = price }

        init<Source: ResponseData>(response data: Source) throws(ResponseDecodingError) {
            price = try data.field("price")
        }

        var jsonValue: JSONValue { .object(["price": price.jsonValue]) }
    }
}

/// The query's schema metadata, as codegen writes it: its root type, nothing keyed.
private enum PriceSchema: NormAPI.SchemaMetadata {
    static let objectTypes = [NormAPI.Object(typename: "Query", implementedInterfaces: [])]
    static let interfaces: [NormAPI.Interface] = []
    static let unions: [NormAPI.Union] = []
    static let fieldPolicies: [NormAPI.FieldPolicy] = []
    static let rootTypes = NormAPI.RootTypes(query: "Query", mutation: nil, subscription: nil)
}
