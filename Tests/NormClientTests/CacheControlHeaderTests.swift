import Foundation
import NormCache
@testable import NormClient
import Testing

/// Reading an HTTP answer's `Cache-Control` header into the max age of its response
/// (``CacheControlHeader``, ``HTTPAnswer``); HTTPTransportTests has it end to end.
@Suite struct CacheControlHeaderTests {
    static let parsed: [(header: String, maxAge: Double?)] = [
        ("max-age=300", 300),
        ("public, max-age=60", 60),
        ("Max-Age = 45 , private", 45),
        (#"max-age="30""#, 30),
        ("max-age=0", 0),
        ("max-age=60, max-age=5", 60),
        ("no-store", 0),
        ("no-cache", 0),
        ("max-age=300, no-cache", 0),
        ("public, no-store, max-age=300", 0),
        ("s-maxage=60", nil),
        ("public, must-revalidate", nil),
        ("", nil),
    ]

    @Test(arguments: parsed.indices) func whatAHeaderGives(_ index: Int) throws {
        let (header, maxAge) = Self.parsed[index]
        #expect(try CacheControlHeader.maxAge(of: header) == maxAge, "\(header)")
    }

    static let unparsable: [(header: String, reason: String)] = [
        ("max-age=soon", "max-age=soon is not whole seconds"),
        ("public, max-age=-5", "max-age=-5 is not whole seconds"),
        ("max-age=1.5", "max-age=1.5 is not whole seconds"),
        ("max-age", "max-age is not whole seconds"),
        ("max-age=", "max-age= is not whole seconds"),
    ]

    @Test(arguments: unparsable.indices) func aHeaderThatDoesNotParse(_ index: Int) {
        let (header, reason) = Self.unparsable[index]
        #expect(throws: CacheControlHeader.Unparsable(reason: reason)) { try CacheControlHeader.maxAge(of: header) }
    }

    let url = URL(string: "http://127.0.0.1:8000/graphql")!
    let body = Array(#"{"data":{"trip":{"__typename":"Trip","id":"1","name":"Lisbon"}}}"#.utf8)

    /// The answer's response carries the header's max age; a header that does not parse
    /// gives none, and a warning that names it; a plugin's or an app's response has none.
    @Test func theAnswersResponseCarriesItsMaxAge() throws {
        func response(_ header: String?) throws -> TransportResponse {
            try HTTPAnswer(url: url, status: 200, contentType: "application/json", cacheControl: header, body: body).graphQLResponse()
        }
        #expect(try response("max-age=300").maxAge == 300)
        #expect(try response("max-age=300").warning == nil)
        #expect(try response(nil).maxAge == nil)
        #expect(try response("no-store").maxAge == 0)
        let unparsable = try response("max-age=soon")
        #expect(unparsable.maxAge == nil)
        #expect(unparsable.warning == "the Cache-Control header `max-age=soon` from http://127.0.0.1:8000/graphql does not parse "
                + "(max-age=soon is not whole seconds): its response is written as if it had none")
        #expect(TransportResponse(["data": nil]).maxAge == nil)
    }

    /// Written, the response's max age is that of the fields it wrote, and its warning
    /// joins the cache's.
    @Test func writtenItsFieldsHaveItsMaxAge() throws {
        let cache = NormalizedCache()
        let query = try cache.operation(#"query Lisbon { trip(id: "1") { id name } }"#)
        for (header, maxAge) in [("max-age=300", 300.0), ("max-age=soon", nil)] as [(String, Double?)] {
            try HTTPAnswer(url: url, status: 200, contentType: "application/json", cacheControl: header, body: body).graphQLResponse()
                .write(into: cache, for: query, variables: CacheObject(), schema: nil, cause: .write)
            #expect(try cache.ages(of: "Trip:1")?.first { $0.field == "name" }?.maxAge == maxAge, "\(header)")
        }
        #expect(cache.takeWarnings().count == 1)
    }
}
