import NormPluginKit

/// The server behind the plugin's endpoint: one ``DonutShop`` per user, made on the user's
/// first request; `login` switches the user, `logout` drops the user's orders and goes back
/// to the user `default`.
///
/// ```swift
/// let server = DonutServer()
/// await server.follow(.login(user: "ana"))
/// let schema = try ExecutableSchema(sdl: DonutSchema.sdl, resolvers: server.resolvers)
/// ```
actor DonutServer {
    private var shops = PerUser { _ in DonutShop() }

    /// Follows the app's lifecycle: `login` switches the user, `logout` drops their data.
    func follow(_ event: LifecycleEvent) {
        shops.follow(event)
    }

    /// The resolvers of the endpoint's root fields.
    nonisolated var resolvers: Resolvers<Environment> {
        Resolvers(
            query: [
                "donuts": { _, _ in await self.shop { $0.menu.map(\.object) } },
                "order": { arguments, _ in
                    let id = try arguments["id"].stringValue()
                    return await self.shop { $0.order(id: id)?.object }
                },
                "me": { _, _ in await self.me.object },
            ],
            mutation: [
                "createOrder": { arguments, _ in
                    let items = try arguments["items"].arrayValue().map { try $0.stringValue() }
                    return try await self.shop { try $0.createOrder(items: items).object }
                },
                "payOrder": { arguments, _ in
                    let id = try arguments["id"].stringValue()
                    return try await self.shop { try $0.pay(id).object }
                },
            ]
        )
    }

    /// The current user, named after the login with a capital.
    private var me: User {
        let user = shops.user
        return User(id: user, name: user.prefix(1).uppercased() + user.dropFirst())
    }

    /// Runs `body` on the current user's shop, opening it first if needed.
    private func shop<Result: Sendable>(_ body: (inout DonutShop) throws -> Result) rethrows -> Result {
        try shops.current(body)
    }
}
