import Testing

/// The PURLs plugin as the host loads it (``LoadedPlugin/bundled(_:host:)``): its server
/// answers the generated operations of its manifest, and its commands run them through the
/// host and print from their generated data.
@Suite struct PurlsPluginTests {
    let host = FakeHost()
    let purls: LoadedPlugin

    init() throws {
        purls = try LoadedPlugin.bundled("purls", host: host)
    }

    static let teamPage = """
        {"data":{"purls":{"__typename":"PurlPage","items":[\
        {"__typename":"PURL","address":"team@example.org","name":"handbook","url":"https://team.example.org/handbook","title":"Team handbook"},\
        {"__typename":"PURL","address":"team@example.org","name":"oncall","url":"https://team.example.org/oncall","title":"Who is on call"}],\
        "nextPage":null}}}
        """

    @Test func theServerAnswersTheManifestsOperations() async throws {
        #expect(try await purls.query(purls.operation("PurlListPage"), #"{"address": "team@example.org", "page": 1}"#) == Self.teamPage)
        #expect(try await purls.query(purls.operation("DeletePurl"), #"{"address": "team@example.org", "name": "cv"}"#)
            == #"{"errors":[{"message":"team@example.org has no PURL named cv","locations":[{"line":2,"column":3}],"path":["deletePurl"]}]}"#)
    }

    @Test func fetchReadsThePagesAsTheyCome() async throws {
        host.reply(to: "run", with: (true, Self.teamPage))
        #expect(try await purls.command("purls.fetch", "team@example.org")
            == (true, #"{"output":["page 1: 2 purls (handbook, oncall)","total: 2 purls in 1 page"]}"#))
        #expect(host.received == [#"run {"operation":"PurlListPage","variables":{"address":"team@example.org","page":1},"policy":"network-only"}"#])
    }

    @Test func createShowsThePurlAtOnceAndTheServerWins() async throws {
        host.reply(to: "run", with: (true, """
            {"data":{"createPurl":{"__typename":"PURL","address":"ana@example.org","name":"cv","url":"https://ana.example.org/cv.pdf","title":"Curriculum vitae"}}}
            """))
        #expect(try await purls.command("purls.create", "ana@example.org", "cv", "https://new.example")
            == (true, #"{"output":["server kept https://ana.example.org/cv.pdf for cv of ana@example.org (not https://new.example)"]}"#))
        #expect(host.received == [#"""
            run {"operation":"CreatePurl","variables":{"address":"ana@example.org","name":"cv","url":"https://new.example"},"policy":"network-only",\#
            "optimistic":{"createPurl":{"__typename":"PURL","address":"ana@example.org","name":"cv","url":"https://new.example","title":null}}}
            """#])
    }
}
