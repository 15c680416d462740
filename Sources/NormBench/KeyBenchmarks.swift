import CCore
import NormCache

/// Benchmarks of the C key core as the engine uses it.
enum KeyBenchmarks {
    static let keyCount = 1_000_000

    /// Keys per `KeyInterner.intern(utf8:into:)` call in `keys.intern`: what a loader
    /// interning a cache file's record keys or a restored snapshot's would hand over at once.
    static let batchSize = 1_024

    /// `keys.intern`: interning the keys that normalizing responses produces, in batches
    /// through the interner's batch entry, in keys per second, against raw `nc_hash64` over the
    /// same bytes.
    static let intern = Benchmark(
        name: "keys.intern",
        unit: "keys/s",
        summary: "intern 1M keys as normalizing responses meets them (\(KeyWorkload.distinctEntities) entities; "
            + "entity, field and path keys) into a fresh interner, \(batchSize) keys a call (the batch entry, "
            + "as loading a cache file would use it); baseline: raw nc_hash64 over the same bytes"
    ) { trial in
        let workload = KeyWorkload(count: keyCount)
        let seconds = trial.medians({
            let interner = try KeyInterner()
            let ids = UnsafeMutableBufferPointer<KeyID>.allocate(capacity: batchSize)
            defer { ids.deallocate() }
            var checksum: UInt64 = 0
            workload.forEachBatch(of: batchSize) { keys in
                trial.must { try interner.intern(utf8: keys, into: ids) }
                for id in ids.prefix(keys.count) { checksum &+= UInt64(id.rawValue) }
            }
            return Int(truncatingIfNeeded: checksum)
        }, baseline: {
            var checksum: UInt64 = 0
            workload.forEach { key in checksum &+= nc_hash64(key.baseAddress, key.count) }
            return Int(truncatingIfNeeded: checksum)
        })
        return .rate(keyCount, seconds)
    }
}

/// A deterministic stream of the keys a normalized cache meets while writing responses:
/// for each object, its entity key, the field keys of its selection (some with arguments)
/// and the path key of an unkeyed child. Entities repeat, as they do across responses.
struct KeyWorkload {
    static let distinctEntities = 10_000

    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    init(count: Int) {
        let types = ["Trip", "User", "Station", "Airport", "Reservation", "Journey", "Human", "Droid"]
        let fields = [
            "__typename", "id", "name", "owner", "destination", "dates(format:ISO8601)",
            "journeys(first:10)", "reservations([filter:confirmed:true,kinds:[HOTEL, FLIGHT]],first:20)",
            "friends(first:3)", "height(unit:METER)",
        ]
        var random = SplitMix64(seed: 0x6e63_6b65_7973)
        bytes.reserveCapacity(count * 20)
        ends.reserveCapacity(count)
        while ends.count < count {
            let entity = Int(random.next() % UInt64(Self.distinctEntities))
            let entityKey = "\(types[entity % types.count]):\(entity)"
            append(entityKey)
            for field in fields.prefix(3 + Int(random.next() % UInt64(fields.count - 2))) where ends.count < count {
                append(field)
            }
            if ends.count < count { append(entityKey + ".destination") }
        }
    }

    private mutating func append(_ key: String) {
        bytes.append(contentsOf: key.utf8)
        ends.append(bytes.count)
    }

    /// Calls `body` with each key's UTF-8 bytes in order.
    func forEach(_ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { all in
            var start = 0
            for end in ends {
                body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }

    /// Calls `body` with the keys in order, `size` at a time (the last batch may be
    /// shorter), as spans of their UTF-8 bytes in one reused buffer.
    func forEachBatch(of size: Int, _ body: (UnsafeBufferPointer<nc_text>) -> Void) {
        let spans = UnsafeMutableBufferPointer<nc_text>.allocate(capacity: size)
        defer { spans.deallocate() }
        bytes.withUnsafeBytes { all in
            let base = all.baseAddress!.assumingMemoryBound(to: CChar.self)
            var start = 0, filled = 0
            for end in ends {
                spans[filled] = nc_text(bytes: base + start, length: end - start)
                start = end
                filled += 1
                if filled == size {
                    body(UnsafeBufferPointer(spans))
                    filled = 0
                }
            }
            if filled > 0 { body(UnsafeBufferPointer(rebasing: spans[..<filled])) }
        }
    }
}

/// A small seeded generator, so every run measures the same workload.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
