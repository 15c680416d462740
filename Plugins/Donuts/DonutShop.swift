import NormPluginKit

/// One user's donut shop on the server: the menu, the same for everyone, and the user's
/// orders, numbered from 1.
///
/// ```swift
/// var shop = DonutShop()
/// let order = try shop.createOrder(items: ["1", "2"])   // order 1: Glazed, Chocolate, $3.50
/// try shop.pay(order.id)                                // paid
/// try shop.pay(order.id)                                // throws: order 1 is paid already
/// ```
struct DonutShop: Sendable {
    let menu = Self.seedMenu
    private var orders: [Order] = []

    func order(id: String) -> Order? {
        orders.first { $0.id == id }
    }

    /// A new unpaid order of the donuts with ids `items`, each as often as named.
    mutating func createOrder(items: [String]) throws -> Order {
        guard !items.isEmpty else { throw PluginError("an order needs at least one item") }
        let donuts = try items.map { id in
            guard let donut = menu.first(where: { $0.id == id }) else { throw PluginError("no donut with id \(id) on the menu") }
            return donut
        }
        let order = Order(id: String(orders.count + 1), items: donuts, paid: false)
        orders.append(order)
        return order
    }

    mutating func pay(_ id: String) throws -> Order {
        guard let index = orders.firstIndex(where: { $0.id == id }) else { throw PluginError("there is no order \(id)") }
        guard !orders[index].paid else { throw PluginError("order \(id) is paid already") }
        orders[index].paid = true
        return orders[index]
    }
}
