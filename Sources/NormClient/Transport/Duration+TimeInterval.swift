import Foundation

extension Duration {
    /// The duration in seconds, as Foundation and Dispatch take it: `.milliseconds(2500)` is 2.5.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
