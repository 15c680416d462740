/// A donut of the menu as the donut shop keeps it: server state, which the resolvers read
/// (`object`); the services read the menu as the generated `MenuQuery.Data.Donut`.
///
/// ```swift
/// let glazed = Donut(id: "1", name: "Glazed", price: 150)
/// glazed.object   // ["id": "1", "name": "Glazed", "price": 150]
/// ```
struct Donut: Sendable {
    let id: String
    let name: String
    let price: Price

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "name": name, "price": price.cents] }
}
