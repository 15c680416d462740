/// An amount in cents, as the server counts it, written in dollars for people.
///
/// ```swift
/// Price(cents: 350).description                 // "$3.50"
/// [Price(cents: 150), Price(cents: 200)].total  // $3.50
/// ```
struct Price: Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    let cents: Int

    init(cents: Int) { self.cents = cents }
    init(integerLiteral cents: Int) { self.init(cents: cents) }

    var description: String {
        let remainder = cents % 100
        return "$\(cents / 100).\(remainder < 10 ? "0" : "")\(remainder)"
    }
}

extension Sequence<Price> {
    var total: Price { Price(cents: reduce(0) { $0 + $1.cents }) }
}
