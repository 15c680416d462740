extension PurlDirectory {
    /// Seven PURLs, the same at every start: five of ana@example.org (three pages) and two of
    /// team@example.org (one page).
    static let seed = [
        PURL(address: "ana@example.org", name: "cv", url: "https://ana.example.org/cv.pdf", title: "Curriculum vitae"),
        PURL(address: "team@example.org", name: "handbook", url: "https://team.example.org/handbook", title: "Team handbook"),
        PURL(address: "ana@example.org", name: "blog", url: "https://ana.example.org/blog", title: "Notes from Lisbon"),
        PURL(address: "ana@example.org", name: "talk", url: "https://slides.example.org/ana/caches", title: "Normalized caches, the talk"),
        PURL(address: "team@example.org", name: "oncall", url: "https://team.example.org/oncall", title: "Who is on call"),
        PURL(address: "ana@example.org", name: "photos", url: "https://photos.example.org/ana", title: "Photographs"),
        PURL(address: "ana@example.org", name: "keys", url: "https://ana.example.org/keys.asc", title: "PGP keys"),
    ]
}
