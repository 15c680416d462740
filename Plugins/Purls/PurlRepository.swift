import NormPluginKit

/// The `purls` service: a repository of PURLs over the host's client. Pages come as a
/// stream, each fetched from the network and written through to the cache as it arrives;
/// a new PURL shows at once (optimistically) and the server's answer replaces it; a
/// deleted PURL leaves the cache.
///
/// ```swift
/// let purls = try environment.service(PurlRepository.self)
/// for try await page in purls.fetch(address: "ana@example.org") {
///     print(page.number, page.items.map(\.name))      // 1 ["cv", "blog"], 2 [...], 3 [...]
/// }
/// let kept = try await purls.create(PURL(address: "ana@example.org", name: "cv", url: "https://new.example"))
/// kept.url   // "https://ana.example.org/cv.pdf": the server wins
/// ```
final class PurlRepository: Service {
    let domain = "purls"
    let host: Host
    private let server: PurlServer

    init(environment: Environment) throws {
        host = try environment.get(Host.self)
        server = try environment.get(PurlServer.self)
    }

    func handle(_ event: LifecycleEvent) async {
        await server.follow(event)
    }

    /// The pages of `address`'s PURLs, from page 1 until the server names no next page,
    /// fetched network-only one after another (the host writes each to the cache) and
    /// yielded as each arrives. Stopping the iteration stops the fetching after the page in
    /// flight; a failure ends the stream with that error.
    func fetch(address: String) -> AsyncThrowingStream<PurlPage, any Error> {
        let host = host
        let (pages, continuation) = AsyncThrowingStream.makeStream(of: PurlPage.self)
        let task = Task {
            do {
                var next: Int? = 1
                while let number = next {
                    try Task.checkCancellation()
                    let reply = try await host.run(
                        .operation("PurlListPage"), variables: ["address": .string(address), "page": .int(number)], policy: .networkOnly
                    )
                    let page = try PurlPage(number: number, data: Host.data(of: reply)["purls"])
                    if let following = page.nextPage, following <= number {
                        throw PluginError("the server sent page \(following) as the page after \(number)")
                    }
                    continuation.yield(page)
                    next = page.nextPage
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return pages
    }

    /// Starts a watcher of the first page of `address`'s PURLs (the workbench shows its
    /// emissions) and returns its id.
    func watchFirstPage(address: String) async throws -> Int {
        try await host.watch(.operation("PurlList"), variables: ["address": .string(address)])
    }

    /// Creates `purl`, shown in the cache at once as the client expects it, and returns what
    /// the server kept (on a conflict, its own PURL of that address and name). When the
    /// mutation fails the host takes the optimistic PURL back out, and the error says so.
    func create(_ purl: PURL) async throws -> PURL {
        let expected: Map = [
            "__typename": "PURL", "address": .string(purl.address), "name": .string(purl.name),
            "url": .string(purl.url), "title": purl.title.map(Map.string) ?? .null,
        ]
        let reply: Map
        do {
            reply = try await host.data(
                .operation("CreatePurl"),
                variables: ["address": .string(purl.address), "name": .string(purl.name), "url": .string(purl.url)],
                policy: .networkOnly, optimistic: ["createPurl": expected]
            )
        } catch {
            throw PluginError("rolled back: \(error)")
        }
        return try PURL(reply["createPurl"])
    }

    /// Deletes the PURL on the server, then evicts its record from the cache; returns the
    /// field keys evicted (none when the cache did not hold it).
    func delete(address: String, name: String) async throws -> [String] {
        _ = try await host.data(
            .operation("DeletePurl"), variables: ["address": .string(address), "name": .string(name)], policy: .networkOnly
        )
        return try await host.evict(try await PURL.recordKey(address: address, name: name, host: host))
    }
}
