import Foundation
import NormPluginKit

/// A donut of the menu; its price is in cents.
///
/// ```swift
/// let glazed = Donut(id: "1", name: "Glazed", price: 150)
/// glazed.matches("glazed")   // true: by id or by name, in any case
/// ```
struct Donut: Sendable {
    let id: String
    let name: String
    let price: Price

    init(id: String, name: String, price: Price) {
        self.id = id
        self.name = name
        self.price = price
    }

    /// The donut of a response's `{"id": ..., "name": ..., "price": ...}`.
    init(_ data: Map) throws {
        guard let id = data["id"].string, let name = data["name"].string, let cents = data["price"].int else {
            throw PluginError("the server sent a donut without id, name or price")
        }
        self.init(id: id, name: name, price: Price(cents: cents))
    }

    /// Whether `item`, as a user types it, names this donut: its id, or its name in any case.
    func matches(_ item: String) -> Bool {
        item == id || item.caseInsensitiveCompare(name) == .orderedSame
    }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] { ["id": id, "name": name, "price": price.cents] }
}
