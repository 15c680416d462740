import Testing
@testable import NormCache

/// The containers a write fills: the staging of its records, the record table, and the
/// amortised reservations both rely on.
@Suite struct RecordStorageTests {
    static func record(_ pairs: [(UInt32, CacheValue)]) -> StoredRecord {
        StoredRecord(fieldIDs: pairs.map(\.0), values: pairs.map { .value($0.1) })
    }

    /// Records are handed out in the order staged, each once, with any later merges,
    /// also after the staging grew past its first room.
    @Test func stagedRecordsMoveOutInOrder() {
        let staged = StagedRecords()
        for id in 0..<40 as Range<UInt32> {
            #expect(staged.append(100 + id, Self.record([(1, .int(Int64(id)))])) == Int(id))
        }
        staged[3].merge(2, .value("three"))
        staged[3].merge(1, .value(.int(-3)))
        staged.reserveRoom(for: 1_000)
        var seen: [(UInt32, StoredRecord)] = []
        staged.moveOut { seen.append(($0, $1)) }
        #expect(staged.count == 0)
        #expect(seen.map(\.0) == Array(100..<140))
        #expect(seen[3].1.fieldIDs == [1, 2] && seen[3].1.values == [.value(.int(-3)), .value("three")])
        #expect(seen[39].1.values == [.value(.int(39))])
        var again: [UInt32] = []
        staged.moveOut { record, _ in again.append(record) }
        #expect(again.isEmpty)
    }

    /// A new record at the next id is appended; one past it leaves empty records between.
    @Test func tableInsertsAtTheNextIdAndPastIt() {
        var table = RecordTable()
        table.insert(0, Self.record([(1, "a")]))
        table.insert(3, Self.record([(1, "d")]))
        table.insert(4, Self.record([(1, "e")]))
        table.insert(1, Self.record([(1, "b")]))
        #expect(table.ids == [0, 1, 3, 4])
        #expect(table.value(3, 1) == .value("d") && table.value(1, 1) == .value("b"))
        table.reserve(upTo: 100)
        #expect(table.ids == [0, 1, 3, 4])
    }

    /// Many small reservations stay amortised: the capacity at least doubles each time it grows.
    @Test func reservingRoomAtLeastDoubles() {
        var items: [Int] = []
        items.reserveRoom(for: 10)
        let first = items.capacity
        #expect(first >= 10)
        items.append(contentsOf: repeatElement(0, count: first))
        items.reserveRoom(for: 1)
        #expect(items.capacity >= 2 * first)
        let grown = items.capacity
        items.reserveRoom(for: grown - items.count)  // fits: nothing moves
        #expect(items.capacity == grown)
    }
}
