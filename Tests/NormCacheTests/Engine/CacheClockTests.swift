import Foundation
import Testing
@testable import NormCache

/// The cache's clock (issue 37): real time, moved forward (ticking), or stopped at an
/// instant; never back; and the one time commits are stamped with.
@Suite struct CacheClockTests {
    final class RealTime: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
    }

    @Test func movedForwardItTicksStoppedItStandsAndItNeverGoesBack() throws {
        let real = RealTime()
        var clock = CacheClock { real.now }
        #expect(clock.now() == real.now)
        try clock.advance(by: 90)
        real.now += 10
        #expect(clock.now() == real.now.addingTimeInterval(90), "moved forward, it keeps ticking")
        let instant = real.now.addingTimeInterval(86_400)
        try clock.set(to: instant)
        real.now += 10
        #expect(clock.now() == instant, "stopped, it stands")
        try clock.advance(by: 60)
        #expect(clock.now() == instant.addingTimeInterval(60))
        #expect(throws: CacheError.self) { try clock.advance(by: -1) }
        #expect(throws: CacheError.self) { try clock.set(to: instant) }
        #expect(clock.now() == instant.addingTimeInterval(60), "a refused move changes nothing")
        clock.reset()
        #expect(clock.now() == real.now && clock.setting == .real(offset: 0))
    }

    @Test func commitsAreStampedWithTheCachesClock() throws {
        let cache = try Support.cache()
        let instant = Date(timeIntervalSince1970: 1_900_000_000)
        try cache.clock.set(to: instant)
        try cache.write(record: "Trip:1", fields: ["name": "Porto"])
        #expect(cache.history(of: "Trip:1")?.map(\.at) == [instant])
        let watch = try cache.watch(try cache.operation("{ trip { name } }")) { _ in }
        try cache.clock.advance(by: 60)
        try cache.write(record: "User:1", fields: ["name": "Ada"])
        #expect(cache.explain(watcher: watch.id)?.commits.map(\.at) == [instant.addingTimeInterval(60)])
        withExtendedLifetime(watch) {}
    }
}
