/// An order of donuts as the donut shop keeps it: server state, which the resolvers read
/// (`object`); its total is the sum of its items' prices. The services read orders as the
/// generated ``OrderFields``.
///
/// ```swift
/// let order = Order(id: "1", items: [glazed, chocolate], paid: false)
/// order.total   // $3.50
/// ```
struct Order: Sendable {
    let id: String
    let items: [Donut]
    var paid: Bool

    var total: Price { items.map(\.price).total }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        ["id": id, "items": items.map(\.object), "total": total.cents, "paid": paid]
    }
}
