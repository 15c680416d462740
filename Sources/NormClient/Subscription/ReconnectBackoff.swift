/// How long a ``WebSocketTransport`` waits before each attempt to reconnect a dropped
/// connection: `initial`, doubling each attempt up to `maximum`, until the subscriptions
/// are stopped. (Apollo iOS waits a fixed interval; a doubling wait spares a server that is
/// restarting.)
///
/// ```swift
/// let backoff = ReconnectBackoff(initial: .milliseconds(500), maximum: .seconds(30))
/// backoff.delay(beforeAttempt: 3)   // 2 seconds
/// ```
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait before attempt `attempt` (1 = the first after the drop).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(attempt, 1) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}
