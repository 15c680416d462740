/// Where the write in progress staged each record (``Normalizer/staged``), by record id.
/// Each write is a new generation, so nothing is cleared between writes and a look-up is
/// one array access.
struct StagingSlots {
    private var marks: [(generation: UInt32, slot: Int)] = []
    private var generation: UInt32 = 0

    mutating func beginWrite() {
        generation &+= 1
        if generation == 0 {  // wrapped: forget every old mark
            marks = []
            generation = 1
        }
    }

    /// Where this write staged `record`, if it did.
    @inline(__always) func slot(of record: UInt32) -> Int? {
        let i = Int(record)
        return i < marks.count && marks[i].generation == generation ? marks[i].slot : nil
    }

    /// Room for marks of record ids below `count`, made at once (a hint).
    mutating func reserve(upTo count: Int) {
        marks.reserveRoom(for: count - marks.count)
    }

    @inline(__always) mutating func mark(_ record: UInt32, slot: Int) {
        let i = Int(record)
        if i >= marks.count { grow(toHold: i) }
        marks[i] = (generation, slot)
    }

    /// Unmarked entries up to the reserved room, or else twice as many: one call for many ids.
    @inline(never) private mutating func grow(toHold i: Int) {
        let count = i < marks.capacity ? marks.capacity : max(i + 1, marks.count * 2)
        marks.append(contentsOf: repeatElement((generation: 0, slot: 0), count: count - marks.count))
    }
}
