import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession that an ``HTTPTransport``'s requests go through, shared by the copies of
/// the transport: the app's own, used as it is and never invalidated, or the transport's
/// own, ephemeral (no cookies or cached answers on disk).
///
/// On Darwin the transport's own session serves all its requests, and so do its
/// connections (kept alive: one TCP and TLS handshake, not one a request); it is
/// invalidated when the last copy of the transport goes, once its requests are done. On
/// Linux each request has a session of its own, and so a connection of its own:
/// FoundationNetworking (still in Swift 6.3) holds up every task of a session while it
/// winds a refused body down, and reports a reset of a reused keep-alive connection as
/// nothing at all, so that request waits for its deadline (docs/reliability.md). An app's
/// own session is shared on Linux too: the app chose it.
///
/// ```swift
/// let sessions = HTTPSession(nil)                        // the transport's own
/// let (session, owns) = sessions.forRequest(delegate: exchange)
/// ```
final class HTTPSession: Sendable {
    /// The session every request goes through: the app's, or on Darwin the transport's
    /// own; none on Linux without the app's.
    private let shared: URLSession?
    /// Whether `shared` is the transport's own, to invalidate when the transport goes.
    private let ownsShared: Bool

    init(_ appSession: URLSession?) {
        #if os(Linux)
        (shared, ownsShared) = (appSession, false)
        #else
        (shared, ownsShared) = (appSession ?? Self.makeOwn(), appSession == nil)
        #endif
    }

    deinit {
        if ownsShared { shared?.finishTasksAndInvalidate() }
    }

    /// The session for one request, and whether it was made for that request alone (on
    /// Linux), with `delegate` as its delegate, for the request to end when it is done.
    func forRequest(delegate: any URLSessionDelegate) -> (session: URLSession, ownsSession: Bool) {
        if let shared { return (shared, false) }
        return (Self.makeOwn(delegate: delegate), true)
    }

    private static func makeOwn(delegate: (any URLSessionDelegate)? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral   // no cookies or cached answers on disk
        configuration.timeoutIntervalForRequest = 24 * 60 * 60   // the exchange's deadline is the one that applies
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }
}
