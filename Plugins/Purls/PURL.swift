import NormPluginKit

/// A persistent URL: a short name under an address that stands for a longer URL. The cache
/// keys it by address and name, `PURL:ana@example.org+cv`.
///
/// ```swift
/// let purl = PURL(address: "ana@example.org", name: "cv", url: "https://ana.example.org/cv.pdf", title: "Curriculum vitae")
/// try await PURL.recordKey(address: purl.address, name: purl.name, host: host)   // "PURL:ana@example.org+cv"
/// ```
struct PURL: Sendable {
    let address: String
    let name: String
    let url: String
    /// What the link is; nil for a PURL created without one.
    let title: String?

    init(address: String, name: String, url: String, title: String? = nil) {
        self.address = address
        self.name = name
        self.url = url
        self.title = title
    }

    /// The PURL of a response's `{"address": ..., "name": ..., "url": ..., "title": ...}`.
    init(_ data: Map) throws {
        guard let address = data["address"].string, let name = data["name"].string, let url = data["url"].string else {
            throw PluginError("the server sent a PURL without address, name or url")
        }
        self.init(address: address, name: name, url: url, title: data["title"].string)
    }

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        var object: [String: any Sendable] = ["address": address, "name": name, "url": url]
        object["title"] = title
        return object
    }

    /// The key of a PURL's record in the host's cache, as the type policy `["address", "name"]`
    /// makes it, asked of the host: its key core escapes and normalizes the values exactly
    /// as it does for the records it writes.
    static func recordKey(address: String, name: String, host: Host) async throws -> String {
        try await host.entityKey(type: "PURL", values: [address, name])
    }
}
