import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request and its answer as it arrives: the status and headers, then the body,
/// which is refused as soon as it outgrows a limit. Whatever comes first ends it: the
/// whole answer, a broken connection, the deadline, a body too large, or the caller's
/// cancel; each failure says what had arrived by then. A `multipart/mixed` answer (`@defer`)
/// is handed over at its head instead, with its parts as they arrive (``MultipartReader``
/// splits them): its deadline is then the time between parts, its limit the size of a
/// part, and a part that does not read, a broken transfer or the caller dropping the parts
/// ends it.
///
/// The exchange hears its own task's events on whichever session it runs (``HTTPSession``:
/// its transport's, or an app's, whose delegate still answers authentication challenges).
/// On Darwin it is the task's delegate, which URLSession tells before the session's. Linux's
/// FoundationNetworking tells a plain data task's events to the session's delegate alone:
/// a session made for the one request has the exchange as its delegate; on an app's
/// session the exchange is the delegate of `data(for:delegate:)`, whose task it learns from
/// the first event, to cancel it (never through the Swift task: cancelling that deadlocks
/// against FoundationNetworking's completion). A session of the exchange's own is ended
/// on a thread of its own, never on the caller's.
///
/// ```swift
/// let answer = try await HTTPExchange.run(request, on: HTTPSession(nil), timeout: 60, limit: 32 << 20)
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
    /// The task under way, and the session made for it alone: what ``finish(_:)`` stops.
    private var transfer: (task: URLSessionTask, ownSession: URLSession?)?
    /// A multipart answer's reader and where its parts go, from its head until it ends
    /// (``endParts(_:)``); the caller has the head by then.
    private var reader: MultipartReader?
    private var parts: AsyncThrowingStream<MultipartReader.Part, any Error>.Continuation?
    /// When the last part of a multipart answer came: its deadline is the time between parts.
    private var lastPart = DispatchTime.now()
    private var received = 0

    private init(url: URL, timeout: TimeInterval, limit: Int) {
        self.url = url
        self.timeout = timeout
        self.limit = limit
    }

    /// Sends `request` on a session of `sessions` and returns the whole answer, or throws
    /// what went wrong.
    static func run(_ request: URLRequest, on sessions: HTTPSession, timeout: TimeInterval, limit: Int) async throws(TransportError) -> HTTPAnswer {
        let exchange = HTTPExchange(url: request.url!, timeout: timeout, limit: limit)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in exchange.start(request, on: sessions, continuation) }
        } onCancel: {
            exchange.finish(.failure(.cancelled))
        }
        return try outcome.get()
    }

    private func start(_ request: URLRequest, on sessions: HTTPSession, _ continuation: CheckedContinuation<Result<HTTPAnswer, TransportError>, Never>) {
        let proceeds = lock.withLock { () -> Bool in
            if let outcome {   // cancelled before it started
                continuation.resume(returning: outcome)
                return false
            }
            self.continuation = continuation
            return true
        }
        guard proceeds else { return }
        // The deadline is kept here, not by URLSession: its timeout is the longest silence
        // between bytes rather than a deadline, and on Linux it is cut to whole seconds.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in self?.deadlinePassed() }
        let (session, ownsSession) = sessions.forRequest(delegate: self)
        #if os(Linux)
        guard ownsSession else { return startOnAppSession(request, session) }
        #endif
        let task = session.dataTask(with: request)
        #if !os(Linux)
        task.delegate = self
        #endif
        follow(task, ownSession: ownsSession ? session : nil)
        task.resume()
    }

    #if os(Linux)
    /// Sends `request` on an app's session, which has a delegate of its own: through
    /// `data(for:delegate:)`, whose task the exchange learns from its first event.
    private func startOnAppSession(_ request: URLRequest, _ session: URLSession) {
        Task {
            let failure: (any Error)?
            do {
                _ = try await session.data(for: request, delegate: self)
                failure = nil
            } catch {
                failure = error
            }
            // The end is told straight from the transfer, while the response and the body
            // may still wait in the delegate queue: they come first.
            session.delegateQueue.addBarrierBlock { self.completed(with: failure) }
        }
    }
    #endif

    /// Keeps `task` (and the session made for it) to stop when the exchange ends, or stops
    /// it now if the exchange has ended already (a multipart answer's ends with its parts).
    private func follow(_ task: URLSessionTask, ownSession: URLSession? = nil) {
        let ended = lock.withLock { () -> Bool in
            if outcome == nil, transfer == nil { transfer = (task, ownSession) }
            return outcome != nil && parts == nil
        }
        if ended { Self.stop(task, ownSession) }
    }

    /// Ends the exchange with `outcome`, once (later outcomes are dropped), then stops what
    /// is still being transferred, unless the outcome is a multipart answer's head: its
    /// parts go on coming until ``endParts(_:)``.
    private func finish(_ outcome: Result<HTTPAnswer, TransportError>) {
        let (waiting, transfer) = lock.withLock {
            () -> (CheckedContinuation<Result<HTTPAnswer, TransportError>, Never>?, (task: URLSessionTask, ownSession: URLSession?)?) in
            guard self.outcome == nil else { return (nil, nil) }
            self.outcome = outcome
            body = []
            defer { continuation = nil }
            if parts != nil, case .success = outcome { return (continuation, nil) }
            defer { self.transfer = nil }
            return (continuation, self.transfer)
        }
        waiting?.resume(returning: outcome)
        if let transfer { Self.stop(transfer.task, transfer.ownSession) }
    }

    /// Ends a multipart answer's parts, with `failure` or at its end, once, and stops the transfer.
    private func endParts(_ failure: TransportError?) {
        let (parts, transfer) = lock.withLock {
            () -> (AsyncThrowingStream<MultipartReader.Part, any Error>.Continuation?, (task: URLSessionTask, ownSession: URLSession?)?) in
            defer { self.parts = nil; reader = nil; self.transfer = nil }
            return (self.parts, self.transfer)
        }
        guard let parts else { return }
        parts.finish(throwing: failure)
        if let transfer { Self.stop(transfer.task, transfer.ownSession) }
    }

    /// The deadline passed: the whole answer's, or for a multipart answer the time since
    /// its last part, which sets the next deadline when parts still come.
    private func deadlinePassed() {
        let idleUntil = lock.withLock { parts == nil ? nil : lastPart + timeout }
        guard let idleUntil else { return finish(.failure(.timeout(timeout))) }
        guard idleUntil <= .now() else {
            return DispatchQueue.global().asyncAfter(deadline: idleUntil) { [weak self] in self?.deadlinePassed() }
        }
        endParts(.timeout(timeout))
    }

    private static func stop(_ task: URLSessionTask, _ ownSession: URLSession?) {
        task.cancel()
        if let ownSession { Thread.detachNewThread { ownSession.invalidateAndCancel() } }
    }

    // MARK: what URLSession reports

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        follow(dataTask)
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
        let contentType = HTTPAnswer.contentType(of: response)
        if (200..<300).contains(response.statusCode), MultipartReader.isMultipart(contentType) {
            return streamParts(of: response, contentType)
        }
        lock.withLock {
            self.response = response
            if declared > 0 { body.reserveCapacity(Int(declared)) }   // the body grows once, not by doubling
        }
        return .allow
    }

    /// A multipart answer: its head goes to the caller now, with the stream its parts go to
    /// as they arrive (dropped by the caller, it stops the transfer).
    private func streamParts(of response: HTTPURLResponse, _ contentType: String) -> URLSession.ResponseDisposition {
        let reader: MultipartReader
        do { reader = try MultipartReader(contentType: contentType) } catch {
            finish(.failure(error))
            return .cancel
        }
        let (stream, parts) = AsyncThrowingStream<MultipartReader.Part, any Error>.makeStream()
        parts.onTermination = { [weak self] end in
            if case .cancelled = end { self?.endParts(.cancelled) }
        }
        lock.withLock {
            self.response = response
            self.reader = reader
            self.parts = parts
            lastPart = .now()
        }
        finish(.success(HTTPAnswer(url: url, response: response, body: [], parts: stream, spec: reader.spec)))
        return .allow
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        follow(dataTask)
        if lock.withLock({ reader != nil }) { return read(data) }
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
        completed(with: error)
    }

    /// The next bytes of a multipart answer: the parts they complete go to the caller; a
    /// part larger than the limit, or one that does not read, ends the answer.
    private func read(_ data: Data) {
        let (read, buffered) = lock.withLock { () -> (Result<[MultipartReader.Part], TransportError>, Int) in
            guard reader != nil else { return (.success([]), 0) }
            received += data.count
            let read = Result { () throws(TransportError) in try reader!.read(data) }
            if case .success(let parts) = read, !parts.isEmpty { lastPart = .now() }
            return (read, reader?.buffered ?? 0)
        }
        deliver(read)
        if buffered > limit { endParts(.tooLarge(url: url.absoluteString, declared: nil, limit: limit)) }
    }

    /// Hands `parts` to the caller, or ends the answer with what went wrong.
    private func deliver(_ parts: Result<[MultipartReader.Part], TransportError>) {
        switch parts {
        case .success(let parts):
            let stream = lock.withLock { self.parts }
            for part in parts { stream?.yield(part) }
        case .failure(let error):
            endParts(error)
        }
    }

    /// The transfer is over: the whole answer came, or `error` ended it.
    private func completed(with error: (any Error)?) {
        if lock.withLock({ reader != nil }) {
            guard let error else {
                deliver(lock.withLock { Result { () throws(TransportError) in try reader?.finish() ?? [] } })
                return endParts(nil)
            }
            let (response, received) = lock.withLock { (self.response, self.received) }
            return endParts(failure(error, response: response, received: received))
        }
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
