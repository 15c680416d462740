import Foundation
import NormPluginKit

/// The `orders` service: makes orders of donuts the ``DonutService`` (resolved from the
/// environment) finds on the menu, and reads them back. It keeps no state of its own.
///
/// ```swift
/// let orders = try environment.service(OrderService.self)
/// let order = try await orders.create(items: ["glazed", "2"])   // order 1: Glazed, Chocolate, $3.50, not paid
/// try await orders.order(id: "1", policy: .networkOnly).paid    // false
/// ```
final class OrderService: Service {
    let domain = "orders"
    private unowned let environment: Environment
    private let api: DonutAPI
    private let log: Log

    init(environment: Environment) throws {
        self.environment = environment
        api = try environment.get(DonutAPI.self)
        log = try environment.get(Log.self)
    }

    func handle(_ event: LifecycleEvent) async {}

    /// A new order of `items`, each a donut's id or name; an error names an item not on the menu.
    func create(items: [String]) async throws -> OrderFields {
        let donuts = try environment.service(DonutService.self)
        var ids: [ID] = []
        for item in items { ids.append(try await donuts.donut(named: item).id) }
        let order = try await api.perform(CreateOrderMutation(items: ids)).createOrder.fragments.orderFields
        log.info("created \(order.summary)")
        return order
    }

    /// The order `id` under `policy`; an error when there is none.
    func order(id: String, policy: FetchPolicy) async throws -> OrderFields {
        guard let order = try await api.fetch(OrderDetailQuery(id: id), policy: policy).order else { throw PluginError("there is no order \(id)") }
        return order.fragments.orderFields
    }

    /// `word` as an order id: a number from 1.
    static func orderID(_ word: String) throws -> String {
        guard let number = Int(word), number >= 1 else { throw PluginError("an order id is a number from 1, not \"\(word)\"") }
        return String(number)
    }

    var commands: [Command] {
        [
            // The new order is in no list the cache holds, and the order view fetches it by id:
            // nothing to refetch.
            Command("orders.create", usage: "ITEM...", help: "Orders donuts, each named by id or name (quote names with spaces).") { [self] arguments in
                let items = arguments.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
                guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
                    throw PluginError("usage: orders.create ITEM...: name each donut by id or name, e.g. 1 glazed")
                }
                return try await log.failure(of: "order") { [try await create(items: items).summary] }
            },
            Command("orders.show", usage: "ID", help: "An order: its items, total and whether it is paid (cache-first).") { [self] arguments in
                let id = try Self.orderID(arguments[0])
                return try await log.failure(of: "showing the order") { [try await order(id: id, policy: .cacheFirst).summary] }
            },
        ]
    }
}

// What the order and payment commands print, from the generated fragment of an order.

extension OrderFields {
    /// `order 1: Glazed, Chocolate, $3.50, not paid`
    var summary: String {
        "order \(id): \(items.map(\.name).joined(separator: ", ")), \(Price(cents: total)), \(paid ? "paid" : "not paid")"
    }
}
