import Foundation
import NormCache
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A whole HTTP answer, and the GraphQL response in it when there is one: the one place
/// that decides whether an answer is one. What is not one is refused with an error that
/// says what came instead: its status, its content type and how its body starts or where
/// its JSON breaks. The body is read once, into the tape the cache writes it from. A
/// response carries the max age of the answer's `Cache-Control` header (``CacheControlHeader``);
/// a header that does not parse leaves it none, with a warning naming the header.
///
/// ```swift
/// let answer = HTTPAnswer(url: url, status: 200, contentType: "text/html", body: Array("<!DOCTYPE html>…".utf8))
/// try answer.graphQLResponse()
/// // not a GraphQL response: the body from http://…/graphql is not JSON: it starts with `<!DOCTYPE html>…` (status 200, text/html)
/// ```
struct HTTPAnswer: Sendable {
    let url: URL
    let status: Int
    /// The `Content-Type` header, or `no content type`.
    let contentType: String
    /// The `Cache-Control` header; nil without one.
    let cacheControl: String?
    let body: [UInt8]
    /// A multipart answer's parts as they arrive (its ``body`` is empty); nil for a whole body.
    let parts: AsyncThrowingStream<MultipartReader.Part, any Error>?
    /// What a multipart answer's parts carry, as its `Content-Type` says; nil for a whole body.
    let spec: MultipartReader.Spec?

    /// How many characters of a body an error message quotes.
    private static let quotedLength = 80

    init(url: URL, status: Int, contentType: String, cacheControl: String? = nil, body: [UInt8],
         parts: AsyncThrowingStream<MultipartReader.Part, any Error>? = nil, spec: MultipartReader.Spec? = nil) {
        self.parts = parts
        self.spec = spec
        self.url = url
        self.status = status
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.body = body
    }

    init(url: URL, response: HTTPURLResponse, body: [UInt8], parts: AsyncThrowingStream<MultipartReader.Part, any Error>? = nil,
         spec: MultipartReader.Spec? = nil) {
        self.init(url: url, status: response.statusCode, contentType: Self.contentType(of: response),
                  cacheControl: response.value(forHTTPHeaderField: "Cache-Control"), body: body, parts: parts, spec: spec)
    }

    static func contentType(of response: HTTPURLResponse) -> String {
        response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
    }

    /// The GraphQL response object: the body of a 2xx answer, or of a 4xx one that holds a
    /// list of `errors` (what servers answer to a request they refuse, a validation error).
    func graphQLResponse() throws(TransportError) -> TransportResponse {
        let parsed = Result { () throws(JSONError) in try JSONText(bytes: body) }
        switch (status, parsed) {
        case (200..<300, .success(let response)) where response.isObject:
            return transportResponse(response)
        case (200..<300, .success(let other)):
            throw .invalidResponse("the body from \(url.absoluteString) is \(other.kindDescription), not a GraphQL response object \(circumstances)")
        case (200..<300, .failure(let error)):
            throw .invalidResponse(notJSON(error))
        case (400..<500, .success(let response)) where response.isObject && errorMessages(response) != nil:
            return transportResponse(response)
        case (_, .success(let response)) where response.isObject:
            if let messages = errorMessages(response), !messages.isEmpty {
                let count = messages.count == 1 ? "1 GraphQL error" : "\(messages.count) GraphQL errors"
                throw .http(status: status, body: "with \(count): " + messages.joined(separator: "; "))
            }
            throw .http(status: status, body: quoted)
        default:
            throw .http(status: status, body: quoted)
        }
    }

    /// The response with the max age its `Cache-Control` header gives, or none and a warning
    /// naming the header when it does not parse.
    private func transportResponse(_ response: JSONText) -> TransportResponse {
        let (maxAge, warning) = freshness
        return TransportResponse(json: response, maxAge: maxAge, warning: warning)
    }

    /// The first part of a multipart answer, with the parts still to come
    /// (``IncrementalParts``); the whole response for any other answer (``graphQLResponse()``).
    func firstResponse() async throws(TransportError) -> TransportResponse {
        guard let parts else { return try graphQLResponse() }
        guard spec == .deferSpec else {
            throw .invalidResponse("\(url.absoluteString) answered a query or mutation with subscription parts (\(contentType))")
        }
        let (maxAge, warning) = freshness
        return try await IncrementalParts.first(of: parts, maxAge: maxAge, warning: warning)
    }

    /// The max age the `Cache-Control` header gives, or none and a warning naming the header
    /// when it does not parse.
    private var freshness: (maxAge: Double?, warning: String?) {
        guard let cacheControl else { return (nil, nil) }
        do throws(CacheControlHeader.Unparsable) {
            return (try CacheControlHeader.maxAge(of: cacheControl), nil)
        } catch {
            return (nil, "the Cache-Control header `\(cacheControl)` from \(url.absoluteString) does not parse "
                    + "(\(error.reason)): its response is written as if it had none")
        }
    }

    /// Why a 2xx body is no JSON: empty, JSON cut short, broken JSON, or something else (HTML, text).
    private func notJSON(_ error: JSONError) -> String {
        let from = "from \(url.absoluteString)"
        if body.isEmpty { return "the body \(from) is empty \(circumstances)" }
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return "the body \(from) is not JSON: it starts with `\(quoted)` \(circumstances)"
        }
        if error.atEndOfText {
            return "the JSON \(from) is cut short after \(byteCount(body.count)): \(error) \(circumstances)"
        }
        return "the body \(from) is not valid JSON: \(error) \(circumstances)"
    }

    /// `(status 200, text/html)`.
    private var circumstances: String { "(status \(status), \(contentType))" }

    /// The start of the body, on one line: what an error message quotes.
    private var quoted: String {
        let text = String(decoding: body.prefix(Self.quotedLength * 4), as: UTF8.self)
            .split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return text.count > Self.quotedLength ? text.prefix(Self.quotedLength) + "…" : text
    }

    /// The messages of a response's `errors` list (``graphQLErrorMessages(_:)``), or nil when it has none.
    private func errorMessages(_ response: JSONText) -> [String]? {
        guard let errors = response.member("errors"), case .list = errors else { return nil }
        return graphQLErrorMessages(errors)
    }
}
