import Testing

/// The donuts plugin as the host loads it (``LoadedPlugin/bundled(_:host:)``): its server
/// answers the generated operations of its manifest, and its services run them through
/// the host and print from their generated data.
@Suite struct DonutsPluginTests {
    let host = FakeHost()
    let donuts: LoadedPlugin

    init() throws {
        donuts = try LoadedPlugin.bundled("donuts", host: host)
    }

    static let order = """
        {"__typename":"Order","id":"1","items":[{"__typename":"Donut","id":"1","name":"Glazed","price":150},\
        {"__typename":"Donut","id":"2","name":"Chocolate","price":200}],"total":350,"paid":false}
        """

    @Test func theServerAnswersTheManifestsOperations() async throws {
        #expect(try await donuts.query(donuts.operation("CreateOrder"), #"{"items": ["1", "2"]}"#) == #"{"data":{"createOrder":\#(Self.order)}}"#)
        #expect(try await donuts.query(donuts.operation("OrderDetail"), #"{"id": "1"}"#) == #"{"data":{"order":\#(Self.order)}}"#)
        #expect(try await donuts.query(donuts.operation("Me")) == #"{"data":{"me":{"__typename":"User","id":"default","name":"Default"}}}"#)
    }

    /// The reply's integers (cents) come as JSON numbers, and read as the generated `Int`s.
    @Test func theMenuPrintsFromItsGeneratedData() async throws {
        host.reply(to: "run", with: (true, #"{"data":{"donuts":[{"__typename":"Donut","id":"1","name":"Glazed","price":150}]},"source":"network"}"#))
        #expect(try await donuts.command("donuts.menu") == (true, #"{"output":["1  Glazed: $1.50"]}"#))
        #expect(host.received == [#"run {"operation":"Menu","variables":{},"policy":"cache-first"}"#])
    }

    @Test func anOrderIsReadOrItsAbsenceOrErrorSaid() async throws {
        host.reply(to: "run", with: (true, #"{"data":{"order":\#(Self.order)},"source":"cache"}"#))
        #expect(try await donuts.command("orders.show", "1") == (true, #"{"output":["order 1: Glazed, Chocolate, $3.50, not paid"]}"#))
        host.reply(to: "run", with: (true, #"{"data":{"order":null},"source":"network"}"#))
        #expect(try await donuts.command("orders.show", "2") == (false, #"{"message":"showing the order failed: there is no order 2"}"#))
        host.reply(to: "run", with: (true, #"{"data":null,"errors":[{"message":"the shop is closed"}],"source":"network"}"#))
        #expect(try await donuts.command("orders.show", "3") == (false, #"{"message":"showing the order failed: the shop is closed"}"#))
        #expect(host.received.first == #"run {"operation":"OrderDetail","variables":{"id":"1"},"policy":"cache-first"}"#)
    }
}
