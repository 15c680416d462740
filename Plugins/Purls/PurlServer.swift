import NormPluginKit

/// The server behind the plugin's endpoint: one ``PurlDirectory`` per user, made on the
/// user's first request; `login` switches the user, `logout` drops the user's PURLs and goes
/// back to the user `default`.
///
/// ```swift
/// let server = PurlServer()
/// await server.follow(.login(user: "ana"))
/// let schema = try ExecutableSchema(sdl: PurlSchema.sdl, resolvers: server.resolvers)
/// ```
actor PurlServer {
    private var directories = PerUser { _ in PurlDirectory() }

    /// Follows the app's lifecycle: `login` switches the user, `logout` drops their data.
    func follow(_ event: LifecycleEvent) {
        directories.follow(event)
    }

    /// The resolvers of the endpoint's root fields.
    nonisolated var resolvers: Resolvers<Environment> {
        Resolvers(
            query: [
                "purls": { arguments, _ in
                    let (address, page) = try (arguments["address"].stringValue(), arguments["page"].intValue())
                    return try await self.directory { try $0.page(page, of: address).object }
                },
            ],
            mutation: [
                "createPurl": { arguments, _ in
                    let purl = try PURL(
                        address: PurlInput.address(arguments["address"].stringValue()),
                        name: PurlInput.name(arguments["name"].stringValue()),
                        url: PurlInput.url(arguments["url"].stringValue())
                    )
                    return await self.directory { $0.create(purl).object }
                },
                "deletePurl": { arguments, _ in
                    let (address, name) = try (arguments["address"].stringValue(), arguments["name"].stringValue())
                    try await self.directory { try $0.delete(address: address, name: name) }
                    return true
                },
            ]
        )
    }

    /// Runs `body` on the current user's PURLs, seeding them first if needed.
    private func directory<Result: Sendable>(_ body: (inout PurlDirectory) throws -> Result) rethrows -> Result {
        try directories.current(body)
    }
}
