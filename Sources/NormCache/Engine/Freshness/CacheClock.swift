import Foundation

/// The time the cache goes by: the one place the engine reads the wall clock, so that a
/// script can move it (the workbench's `.clock`) and what depends on time (a commit's
/// time in the history and the journal; freshness, issue 37) follows it alone. Real time
/// by default; moved forward it keeps ticking from there; set to an instant it stands
/// still until moved again or returned to real time.
///
/// ```swift
/// var clock = CacheClock()
/// try clock.advance(by: 90)                                  // real time + 90 s, ticking
/// try clock.set(to: Date(timeIntervalSince1970: 1_900_000_000))   // stands at that instant
/// clock.now()                                                // 2030-03-17T17:46:40Z
/// clock.reset()                                              // real time again
/// ```
package struct CacheClock: Sendable, Equatable {
    package enum Setting: Sendable, Equatable {
        /// Real time, moved forward by `offset` seconds.
        case real(offset: TimeInterval)
        /// Standing at this instant.
        case fixed(Date)
    }

    package private(set) var setting = Setting.real(offset: 0)
    /// Where real time comes from (the tests give their own).
    private let realTime: @Sendable () -> Date

    package init(realTime: @escaping @Sendable () -> Date = Date.init) {
        self.realTime = realTime
    }

    package func now() -> Date {
        switch setting {
        case .real(let offset): realTime().addingTimeInterval(offset)
        case .fixed(let date): date
        }
    }

    /// Moves the clock `seconds` forward (0 or more: it never goes back).
    package mutating func advance(by seconds: TimeInterval) throws(CacheError) {
        guard seconds >= 0, seconds.isFinite else { throw .invalid("the clock only moves forward, not by \(seconds) s") }
        switch setting {
        case .real(let offset): setting = .real(offset: offset + seconds)
        case .fixed(let date): setting = .fixed(date.addingTimeInterval(seconds))
        }
    }

    /// Stops the clock at `date`, which must not be before its time now.
    package mutating func set(to date: Date) throws(CacheError) {
        let now = now()
        guard date >= now else {
            throw .invalid("the clock only moves forward: \(date.ISO8601Format()) is before its time now, \(now.ISO8601Format())")
        }
        setting = .fixed(date)
    }

    /// Back to real time: the one move that may take the clock back, when it was ahead.
    package mutating func reset() { setting = .real(offset: 0) }

    package static func == (a: CacheClock, b: CacheClock) -> Bool { a.setting == b.setting }
}
