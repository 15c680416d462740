import Synchronization

/// The view state each service announced last (its `state` events), for `.expect state`;
/// written from the plugins' threads as the states arrive.
///
/// ```swift
/// states.record("loaded", of: "feed")
/// states.state(of: "feed")   // "loaded"
/// ```
final class ServiceStates: Sendable {
    private let states = Mutex<[String: String]>([:])

    func record(_ state: String, of service: String) {
        states.withLock { $0[service] = state }
    }

    /// nil for a service that has announced no state.
    func state(of service: String) -> String? { states.withLock { $0[service] } }
}
