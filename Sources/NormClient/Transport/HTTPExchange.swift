import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request and its answer as it arrives: the status and headers, then the body,
/// which is refused as soon as it outgrows a limit. Whatever comes first ends it: the
/// whole answer, a broken connection, the deadline, a body too large, or the caller's
/// cancel; each failure says what had arrived by then.
///
/// Each exchange has a URLSession of its own, and so a connection of its own. On Linux,
/// FoundationNetworking holds up every task of a session while it winds a cancelled
/// transfer down (seconds, for a body still streaming), and it does not report a reset of
/// a reused keep-alive connection (the request waits for its deadline); a session per
/// request keeps each failure to its own request. Sessions are ended on a thread of their
/// own, never on the caller's.
///
/// ```swift
/// let answer = try await HTTPExchange.run(request, timeout: 60, limit: 32 << 20)
/// answer.status        // 200
/// answer.contentType   // "application/json"
/// ```
final class HTTPExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let timeout: TimeInterval
    private let limit: Int
    private let lock = NSLock()
    private var response: HTTPURLResponse?
    private var body: [UInt8] = []
    private var outcome: Result<HTTPAnswer, TransportError>?
    private var continuation: CheckedContinuation<Result<HTTPAnswer, TransportError>, Never>?
    /// The session of this exchange; it holds the exchange (its delegate) until it is ended.
    private var session: URLSession?

    private init(url: URL, timeout: TimeInterval, limit: Int) {
        self.url = url
        self.timeout = timeout
        self.limit = limit
    }

    /// Sends `request` and returns the whole answer, or throws what went wrong.
    static func run(_ request: URLRequest, timeout: TimeInterval, limit: Int) async throws(TransportError) -> HTTPAnswer {
        let exchange = HTTPExchange(url: request.url!, timeout: timeout, limit: limit)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in exchange.start(request, continuation) }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
        return try outcome.get()
    }

    private func start(_ request: URLRequest, _ continuation: CheckedContinuation<Result<HTTPAnswer, TransportError>, Never>) {
        let configuration = URLSessionConfiguration.ephemeral   // no cookies or cached answers on disk
        configuration.timeoutIntervalForRequest = 24 * 60 * 60   // the deadline below is the one that applies
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let proceeds = lock.withLock { () -> Bool in
            if let outcome {   // cancelled before it started
                continuation.resume(returning: outcome)
                return false
            }
            self.continuation = continuation
            self.session = session
            return true
        }
        guard proceeds else { return session.invalidateAndCancel() }
        // The deadline is kept here, not by URLSession: its timeout is the longest silence
        // between bytes rather than a deadline, and on Linux it is cut to whole seconds.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self, timeout] in
            self?.finish(.failure(.timeout(timeout)))
        }
        session.dataTask(with: request).resume()
    }

    /// Ends the exchange with `outcome`, once (later outcomes are dropped), then ends its
    /// session: what is still being transferred stops.
    private func finish(_ outcome: Result<HTTPAnswer, TransportError>) {
        let (waiting, session) = lock.withLock { () -> (CheckedContinuation<Result<HTTPAnswer, TransportError>, Never>?, URLSession?) in
            guard self.outcome == nil else { return (nil, nil) }
            self.outcome = outcome
            body = []
            defer { continuation = nil; self.session = nil }
            return (continuation, self.session)
        }
        waiting?.resume(returning: outcome)
        if let session { Thread.detachNewThread { session.invalidateAndCancel() } }
    }

    // MARK: what URLSession reports

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        completionHandler(received(response))
    }

    private func received(_ response: URLResponse) -> URLSession.ResponseDisposition {
        guard let response = response as? HTTPURLResponse else {
            finish(.failure(.invalidResponse("\(url.absoluteString) did not answer with HTTP")))
            return .cancel
        }
        let declared = response.expectedContentLength
        if declared > Int64(limit) {
            finish(.failure(.tooLarge(url: url.absoluteString, declared: Int(declared), limit: limit)))
            return .cancel
        }
        lock.withLock {
            self.response = response
            if declared > 0 { body.reserveCapacity(Int(declared)) }   // the body grows once, not by doubling
        }
        return .allow
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let size = lock.withLock { () -> Int in
            guard outcome == nil else { return 0 }
            body.append(contentsOf: data)
            return body.count
        }
        if size > limit {
            finish(.failure(.tooLarge(url: url.absoluteString, declared: nil, limit: limit)))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (response, body) = lock.withLock { (self.response, self.body) }
        guard let error else {
            guard let response else { return finish(.failure(.invalidResponse("\(url.absoluteString) sent no HTTP answer"))) }
            return finish(.success(HTTPAnswer(url: url, response: response, body: body)))
        }
        finish(.failure(failure(error, response: response, received: body.count)))
    }

    /// The transport error for a transfer that failed, by what had arrived when it did.
    private func failure(_ error: any Error, response: HTTPURLResponse?, received: Int) -> TransportError {
        let hostAndPort = (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
        guard let error = error as? URLError else { return .unreachable("\(hostAndPort): \(error)") }
        if let response {
            let expected = response.expectedContentLength
            let of = expected >= 0 ? " of the \(byteCount(Int(expected))) its Content-Length declared" : " of the body"
            return .connectionLost("\(url.absoluteString) stopped after sending \(byteCount(received))\(of) "
                + "(status \(response.statusCode), \(HTTPAnswer.contentType(of: response)))")
        }
        switch error.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timeout(timeout)
        case .cannotConnectToHost: return .unreachable("nothing answers at \(hostAndPort)")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable("unknown host \(url.host ?? "")")
        case .unsupportedURL: return .unreachable("\(url.absoluteString) is not an http or https URL")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return .connectionLost("\(hostAndPort) closed the connection before answering (\(error.localizedDescription))")
        default: return .unreachable("\(hostAndPort): \(error.localizedDescription)")
        }
    }
}

/// `512 bytes`, `12 KiB`, `32 MiB`, `9.3 GiB`: a size as people read it.
func byteCount(_ bytes: Int) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes), unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    if unit == 0 { return "\(bytes) bytes" }
    return (value >= 10 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)) + " " + units[unit]
}
