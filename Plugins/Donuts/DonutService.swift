import Foundation
import NormPluginKit

/// The `donuts` service: the menu, and which donut a user means by what they type. It keeps
/// no state of its own; the menu comes through the cache.
///
/// ```swift
/// let donuts = try environment.service(DonutService.self)
/// try await donuts.menu().map(\.name)          // ["Glazed", "Chocolate", ...]
/// try await donuts.donut(named: "boston cream").id   // "3"
/// ```
final class DonutService: Service {
    let domain = "donuts"
    private let api: DonutAPI
    private let log: Log

    init(environment: Environment) throws {
        api = try environment.get(DonutAPI.self)
        log = try environment.get(Log.self)
    }

    func handle(_ event: LifecycleEvent) async {}

    /// The menu, from the cache when it holds it.
    func menu() async throws -> [MenuQuery.Data.Donut] {
        try await api.fetch(MenuQuery()).donuts
    }

    /// The donut of the menu whose id or name (in any case) is `item`.
    func donut(named item: String) async throws -> MenuQuery.Data.Donut {
        let menu = try await menu()
        guard let donut = menu.first(where: { $0.matches(item) }) else {
            throw PluginError("no donut \"\(item)\" on the menu (\(menu.map { "\($0.id) \($0.name)" }.joined(separator: ", ")))")
        }
        return donut
    }

    var commands: [Command] {
        [
            Command("donuts.menu", help: "The menu: id, name and price of each donut.") { [self] _ in
                try await log.failure(of: "menu") {
                    try await menu().map(\.menuLine)
                }
            },
        ]
    }
}

// What the service prints and matches, from the generated type of the menu's donuts.

extension MenuQuery.Data.Donut {
    /// `1  Glazed: $1.50`
    var menuLine: String { "\(id)  \(name): \(Price(cents: price))" }

    /// Whether `item`, as a user types it, names this donut: its id, or its name in any case.
    func matches(_ item: String) -> Bool {
        item == id || item.caseInsensitiveCompare(name) == .orderedSame
    }
}
