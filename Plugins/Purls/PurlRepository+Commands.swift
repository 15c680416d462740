import NormPluginKit

extension PurlRepository {
    /// The commands of the PURL views: fetch every page, watch the first, create, delete.
    var commands: [Command] {
        [
            Command("purls.fetch", usage: "ADDRESS", help: "Fetches every page of an address's PURLs from the network, a line per page as it arrives.") { [self] arguments in
                try await fetchLines(address: PurlInput.address(arguments[0]))
            },
            Command("purls.watch", usage: "ADDRESS", help: "Watches the first page of an address's PURLs (PurlList).") { [self] arguments in
                let address = try PurlInput.address(arguments[0])
                let id = try await watchFirstPage(address: address)
                return ["watching PurlList of \(address) as watcher \(id)"]
            },
            // A new PURL is in no page the cache holds: the first page is fetched again.
            Command("purls.create", usage: "ADDRESS NAME URL", help: "Creates a PURL, optimistically; on a conflict the server keeps its own.",
                    refetch: ["PurlList"]) { [self] arguments in
                let (address, name, url) = try (PurlInput.address(arguments[0]), PurlInput.name(arguments[1]), PurlInput.url(arguments[2]))
                return [try await create(address: address, name: name, url: url).createdLine(asked: url)]
            },
            // The deleted PURL's record leaves the cache, and the first page is fetched again.
            Command("purls.delete", usage: "ADDRESS NAME", help: "Deletes a PURL and evicts its record from the cache.",
                    refetch: ["PurlList"]) { [self] arguments in
                let (address, name) = try (PurlInput.address(arguments[0]), PurlInput.name(arguments[1]))
                let evicted = try await delete(address: address, name: name)
                let key = try await recordKey(address: address, name: name)
                return ["deleted \(name) of \(address); " + (evicted.isEmpty ? "\(key) was not in the cache" : "evicted \(key)")]
            },
        ]
    }

    /// `page 1: 2 purls (cv, blog)` per page as the stream yields it, then the total; a page
    /// that fails ends the command with its error, naming the page.
    private func fetchLines(address: String) async throws -> [String] {
        var lines: [String] = []
        var count = 0
        do {
            for try await page in fetch(address: address) {
                count += page.items.count
                let names = page.items.isEmpty ? "" : " (\(page.items.map(\.name).joined(separator: ", ")))"
                lines.append("page \(lines.count + 1): \(Self.purls(page.items.count))\(names)")
            }
        } catch {
            throw PluginError("fetching page \(lines.count + 1) of the PURLs of \(address) failed: \(error)")
        }
        lines.append("total: \(Self.purls(count)) in \(lines.count) \(lines.count == 1 ? "page" : "pages")")
        return lines
    }

    private static func purls(_ count: Int) -> String {
        "\(count) \(count == 1 ? "purl" : "purls")"
    }
}

// What the commands print, from the generated fragment of a PURL.

extension PurlRow {
    /// What `purls.create` says of the PURL the server kept when `asked` was the URL asked for:
    /// `created cv of ana@example.org: https://...`, or on a conflict whose URL the server kept.
    func createdLine(asked: String) -> String {
        url == asked ? "created \(name) of \(address): \(url)" : "server kept \(url) for \(name) of \(address) (not \(asked))"
    }
}
