import NormPluginKit

// The operations of the donut views, each beside the view it serves.

/// The menu.
enum MenuView {
    static let query = NamedOperation("query Menu { donuts { id name price } }")
}

/// One order: its items, total and whether it is paid.
enum OrderView {
    static let fragment = NamedFragment("fragment OrderFields on Order { id items { id name price } total paid }")
    static let query = NamedOperation("query OrderDetail($id: ID!) { order(id: $id) { ...OrderFields } }", fragments: [fragment])
}

/// The user logged in.
enum ProfileView {
    static let query = NamedOperation("query Me { me { id name } }")
}

/// The changes the order and payment commands make; each returns the order with every field
/// the order view shows, so its record is whole in the cache.
enum OrderMutations {
    static let create = NamedOperation("""
        mutation CreateOrder($items: [ID!]!) { createOrder(items: $items) { ...OrderFields } }
        """, fragments: [OrderView.fragment])

    static let pay = NamedOperation("""
        mutation PayOrder($id: ID!) { payOrder(id: $id) { ...OrderFields } }
        """, fragments: [OrderView.fragment])
}
