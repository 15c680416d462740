import NormPluginKit

/// One user's PURLs on the server, in the order they were made: seeded the same way at
/// every start, served a page of ``pageSize`` at a time per address.
///
/// ```swift
/// var directory = PurlDirectory()
/// try directory.page(1, of: "ana@example.org").nextPage   // 2
/// directory.create(PURL(address: "ana@example.org", name: "cv", url: "https://elsewhere.example"))
/// // the PURL the server had already: the server wins
/// ```
struct PurlDirectory: Sendable {
    static let pageSize = 2

    private var purls = Self.seed

    /// Page `number` (from 1) of the PURLs of `address`; past the last page, an empty one.
    func page(_ number: Int, of address: String) throws -> PurlPage {
        guard number >= 1 else { throw PluginError("page \(number) does not exist: pages count from 1") }
        let all = purls.filter { $0.address == address }
        let start = min((number - 1) * Self.pageSize, all.count)
        let end = min(start + Self.pageSize, all.count)
        return PurlPage(items: Array(all[start..<end]), nextPage: end < all.count ? number + 1 : nil)
    }

    /// Adds `purl`; when its address already has a PURL of that name, the server keeps its
    /// own and returns it.
    mutating func create(_ purl: PURL) -> PURL {
        if let existing = purls.first(where: { $0.address == purl.address && $0.name == purl.name }) { return existing }
        purls.append(purl)
        return purl
    }

    mutating func delete(address: String, name: String) throws {
        guard let index = purls.firstIndex(where: { $0.address == address && $0.name == name }) else {
            throw PluginError("\(address) has no PURL named \(name)")
        }
        purls.remove(at: index)
    }
}
