import NormPluginKit

/// An order of donuts: its total is the sum of its items' prices.
///
/// ```swift
/// let order = Order(id: "1", items: [glazed, chocolate], paid: false)
/// order.summary   // "order 1: Glazed, Chocolate, $3.50, not paid"
/// ```
struct Order: Sendable {
    let id: String
    let items: [Donut]
    var paid: Bool

    var total: Price { items.map(\.price).total }

    init(id: String, items: [Donut], paid: Bool) {
        self.id = id
        self.items = items
        self.paid = paid
    }

    /// The order of a response's `{"id": ..., "items": [...], "paid": ...}`.
    init(_ data: Map) throws {
        guard let id = data["id"].string, let items = data["items"].array, let paid = data["paid"].bool else {
            throw PluginError("the server sent an order without id, items or paid")
        }
        self.init(id: id, items: try items.map(Donut.init), paid: paid)
    }

    /// One line for people.
    var summary: String {
        "order \(id): \(items.map(\.name).joined(separator: ", ")), \(total), \(paid ? "paid" : "not paid")"
    }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        ["id": id, "items": items.map(\.object), "total": total.cents, "paid": paid]
    }
}
