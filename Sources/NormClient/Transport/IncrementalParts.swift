import NormCache

/// The parts of an answer delivered in parts (`@defer`) that are still to come, as the
/// client reads them: each ``next()`` waits for the next part and returns the whole
/// response so far (``IncrementalResponse``), which the client writes as one commit. The
/// first response carries it as its ``TransportResponse/later``; a part that does not
/// read, or a transfer that breaks, throws the ``TransportError`` that says so.
///
/// ```swift
/// var response = try await transport.response(to: request)   // the initial part, "hasNext": true
/// while let later = response.later, let next = try await later.next() {
///     response = next                                         // the deferred fields merged in
/// }
/// ```
package final class IncrementalParts: @unchecked Sendable {
    /// Read by one caller at a time, part after part (the client's fetch).
    private var parts: AsyncThrowingStream<MultipartReader.Part, any Error>.AsyncIterator
    private var merged: IncrementalResponse
    private let maxAge: Double?

    private init(parts: AsyncThrowingStream<MultipartReader.Part, any Error>.AsyncIterator, merged: IncrementalResponse, maxAge: Double?) {
        self.parts = parts
        self.merged = merged
        self.maxAge = maxAge
    }

    /// The first response of `parts`: its initial part, with the rest to come when it says
    /// `"hasNext": true`.
    static func first(of parts: AsyncThrowingStream<MultipartReader.Part, any Error>, maxAge: Double?,
                      warning: String?) async throws(TransportError) -> TransportResponse {
        var iterator = parts.makeAsyncIterator()
        guard let initial = try await next(of: &iterator) else {
            throw .invalidResponse("the multipart answer ended before its first part")
        }
        let reader = IncrementalParts(parts: iterator, merged: try IncrementalResponse(initial: initial), maxAge: maxAge)
        return reader.response(warning: warning)
    }

    /// The whole response after the next part, or nil when the last part said `"hasNext": false`.
    package func next() async throws(TransportError) -> TransportResponse? {
        guard merged.hasNext else { return nil }
        guard let part = try await Self.next(of: &parts) else {
            throw .invalidResponse("the multipart answer ended while its last part said \"hasNext\": true")
        }
        try merged.apply(part)
        return response(warning: nil)
    }

    private func response(warning: String?) -> TransportResponse {
        TransportResponse(merged.response, maxAge: maxAge, warning: warning, later: merged.hasNext ? self : nil)
    }

    private static func next(of parts: inout AsyncThrowingStream<MultipartReader.Part, any Error>.AsyncIterator)
        async throws(TransportError) -> MultipartReader.Part? {
        do {
            let part = try await parts.next()
            if part == nil, Task.isCancelled { throw TransportError.cancelled }
            return part
        } catch let error as TransportError {
            throw error
        } catch {
            throw .invalidResponse("\(error)")
        }
    }
}
