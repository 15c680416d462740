/// A persistent URL as the PURL server keeps it: a short name under an address that stands
/// for a longer URL. It is server state, which the resolvers read (`object`); the
/// repository reads PURLs as the generated ``PurlRow``.
///
/// ```swift
/// let purl = PURL(address: "ana@example.org", name: "cv", url: "https://ana.example.org/cv.pdf", title: "Curriculum vitae")
/// purl.object["title"]   // "Curriculum vitae"
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

    /// What the endpoint's fields read.
    var object: [String: any Sendable] {
        var object: [String: any Sendable] = ["address": address, "name": name, "url": url]
        object["title"] = title
        return object
    }
}
