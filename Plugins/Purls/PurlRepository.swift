import NormPluginKit

/// The `purls` service: a repository of PURLs over the host's client. Pages come as a
/// stream, each fetched from the network and written through to the cache as it arrives;
/// a new PURL shows at once (optimistically) and the server's answer replaces it; a
/// deleted PURL leaves the cache.
///
/// ```swift
/// let purls = try environment.service(PurlRepository.self)
/// for try await page in purls.fetch(address: "ana@example.org") {
///     print(page.items.map(\.name))      // ["cv", "blog"], then page 2, then page 3
/// }
/// let kept = try await purls.create(address: "ana@example.org", name: "cv", url: "https://new.example")
/// kept.url   // "https://ana.example.org/cv.pdf": the server wins
/// ```
final class PurlRepository: Service {
    let domain = "purls"
    private let host: Host
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
    /// yielded in order as each arrives. Stopping the iteration stops the fetching after the
    /// page in flight; a failure ends the stream with that error.
    func fetch(address: String) -> AsyncThrowingStream<PurlListPageQuery.Data.Purls, any Error> {
        let host = host
        let (pages, continuation) = AsyncThrowingStream.makeStream(of: PurlListPageQuery.Data.Purls.self)
        let task = Task {
            do {
                var next: Int? = 1
                while let number = next {
                    try Task.checkCancellation()
                    let page = try await host.fetch(PurlListPageQuery(address: address, page: number), policy: .networkOnly).get().purls
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
        try await host.watch(PurlListQuery(address: address))
    }

    /// Creates the PURL `name` of `address` for `url`, shown in the cache at once as the
    /// client expects it (with no title), and returns what the server kept (on a conflict,
    /// its own PURL of that address and name). When the mutation fails the host takes the
    /// optimistic PURL back out, and the error says so.
    func create(address: String, name: String, url: String) async throws -> PurlRow {
        let expected = PurlRow(address: address, name: name, url: url, title: nil)
        do {
            return try await host.perform(CreatePurlMutation(address: address, name: name, url: url),
                                          optimistic: .init(createPurl: .init(purlRow: expected))).createPurl.fragments.purlRow
        } catch {
            throw PluginError("rolled back: \(error)")
        }
    }

    /// Deletes the PURL on the server, then evicts its record from the cache; returns the
    /// field keys evicted (none when the cache did not hold it).
    func delete(address: String, name: String) async throws -> [String] {
        _ = try await host.perform(DeletePurlMutation(address: address, name: name))
        return try await host.evict(try await recordKey(address: address, name: name))
    }

    /// The key of a PURL's record in the host's cache, as the type policy `["address", "name"]`
    /// makes it, asked of the host: its key core escapes and normalizes the values exactly
    /// as it does for the records it writes (`PURL:ana@example.org+cv`).
    func recordKey(address: String, name: String) async throws -> String {
        try await host.entityKey(type: "PURL", values: [address, name])
    }
}
