import CCore
import NormCache
import Testing

@Suite struct KeyInternerTests {
    /// One million distinct keys of the shapes the cache stores, from the index alone.
    static func generatedKey(_ i: Int) -> String {
        switch i % 4 {
        case 0: return "Type\(i % 97):\(i)"
        case 1: return "QUERY_ROOT.field\(i % 13)(arg:\(i),first:\(i % 7)).\(i % 5)"
        case 2: return "Trip:\(i).name(locale:é\(i))"
        default: return "f([filter:ids:[\(i), \(i + 1)]],x:\(Double(i) / 8))"
        }
    }

    @Test func millionKeysRoundTripWithoutCollisions() throws {
        let interner = try KeyInterner()
        let count = 1_000_000
        for i in 0..<count {
            // Ids are dense and issued in order of first appearance.
            #expect(try interner.intern(Self.generatedKey(i)) == KeyID(rawValue: UInt32(i)))
        }
        #expect(interner.count == count)
        for i in stride(from: 0, to: count, by: 1) {
            let key = Self.generatedKey(i)
            let id = KeyID(rawValue: UInt32(i))
            // Round trip both ways, and re-interning issues nothing new.
            guard interner.key(for: id) == key, interner.find(key) == id, try interner.intern(key) == id else {
                Issue.record("key \(i) \(key) does not round-trip")
                return
            }
        }
        #expect(interner.count == count)
        #expect(interner.key(for: KeyID(rawValue: UInt32(count))) == nil)
    }

    @Test func findNeverInserts() throws {
        let interner = try KeyInterner()
        #expect(interner.find("Human:1000") == nil)
        #expect(interner.count == 0)
        let id = try interner.intern("Human:1000")
        #expect(interner.find("Human:1000") == id)
        #expect(interner.find("Human:1001") == nil)
        #expect(interner.count == 1)
    }

    /// Room made ahead changes no id and no lookup, and the keys it was made for then
    /// intern into the memory it made (a table that grew would take more).
    @Test func reservingRoomChangesNoID() throws {
        let keys = try KeyInterner()
        let root = try keys.intern("QUERY_ROOT")
        keys.reserve(50_000)
        let reserved = keys.memoryBytes
        #expect(keys.find("QUERY_ROOT") == root)
        for i in 0..<50_000 { #expect(try keys.intern("Item:\(i)").rawValue == UInt32(i) + 1) }
        #expect(keys.key(for: KeyID(rawValue: 50_000)) == "Item:49999")
        let grown = try KeyInterner()
        for i in 0..<50_000 { try grown.intern("Item:\(i)") }
        #expect(keys.memoryBytes - reserved < grown.memoryBytes / 2)  // only the keys' own bytes were added
    }

    @Test func canonicallyEquivalentKeysShareAnID() throws {
        let interner = try KeyInterner()
        let composed = try interner.intern("Human:Padm\u{E9}")
        #expect(try interner.intern("Human:Padme\u{301}") == composed)
        #expect(interner.find("Human:Padme\u{301}") == composed)
        #expect(interner.key(for: composed).map { Array($0.utf8) } == Array("Human:Padm\u{E9}".utf8))
        // U+212B ANGSTROM SIGN is canonically U+00C5.
        #expect(try interner.intern("Unit:\u{212B}") == interner.intern("Unit:\u{C5}"))
        // Emoji and other 4-byte sequences pass through unchanged.
        let plug = try interner.intern("DroidModule:Scomp link 🔌")
        #expect(interner.key(for: plug) == "DroidModule:Scomp link 🔌")
    }

    @Test func badKeysGetTheirOwnErrors() throws {
        let interner = try KeyInterner()
        #expect { try interner.intern("a\u{0}b") } throws: { ($0 as? KeyError)?.reason == .embeddedNUL }
        #expect { try interner.intern(String(repeating: "k", count: 1 << 20)) } throws: {
            ($0 as? KeyError)?.reason == .tooLong && "\($0)".contains("kkk…")
        }
        let invalid: [UInt8] = [0x48, 0xFF, 0xC3]
        #expect { try invalid.withUnsafeBytes { try interner.intern(utf8: $0) } } throws: {
            ($0 as? KeyError)?.reason == .invalidUTF8
        }
        let surrogate: [UInt8] = [0xED, 0xA0, 0x80]
        #expect { try surrogate.withUnsafeBytes { try interner.intern(utf8: $0) } } throws: {
            ($0 as? KeyError)?.reason == .invalidUTF8
        }
        #expect(interner.count == 0)
    }

    @Test func runningOutOfIDsIsAnErrorThatChangesNothing() throws {
        let interner = try KeyInterner(maxIDs: 3)
        for key in ["a", "b", "c"] { try interner.intern(key) }
        #expect { try interner.intern("d") } throws: { ($0 as? KeyError)?.reason == .full }
        #expect(try interner.intern("b") == KeyID(rawValue: 1))
        #expect(interner.count == 3)
        #expect(interner.find("d") == nil)
    }

    @Test func batchesGiveWhatSingleCallsGive() throws {
        let single = try KeyInterner(), batched = try KeyInterner()
        // Repeats within and across batches, both normal forms of é, and growth of the table.
        let keys = (0..<50_000).map { i in
            i % 3 == 0 ? Self.generatedKey(i % 7_001) : i % 3 == 1 ? "Caf\u{E9}:\(i % 501)" : "Cafe\u{301}:\(i % 503)"
        }
        let expected = try keys.map { try single.intern($0) }
        var ids: [KeyID] = []
        for first in stride(from: 0, to: keys.count, by: 1_000) {
            ids += try batched.intern(Array(keys[first..<min(first + 1_000, keys.count)]))
        }
        #expect(ids == expected)
        #expect(batched.count == single.count)
        #expect(try batched.intern(keys) == expected)
        #expect(try batched.intern([]) == [])
        #expect(batched.count == single.count)
    }

    @Test func utf8BatchesFillTheirIDs() throws {
        let interner = try KeyInterner()
        let text = Array("Human:1000QUERY_ROOTHuman:1000".utf8)
        var ids = [KeyID](repeating: KeyID(rawValue: 99), count: 4)
        try text.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            let spans = [nc_text(bytes: base, length: 10), nc_text(bytes: base + 10, length: 10), nc_text(bytes: base + 20, length: 10)]
            try spans.withUnsafeBufferPointer { spans in
                try ids.withUnsafeMutableBufferPointer { try interner.intern(utf8: spans, into: $0) }
            }
        }
        #expect(ids.map(\.rawValue) == [0, 1, 0, 99])
        #expect(interner.key(for: KeyID(rawValue: 1)) == "QUERY_ROOT")
    }

    @Test func aBadKeyStopsABatchAfterTheKeysBeforeIt() throws {
        let interner = try KeyInterner()
        #expect { try interner.intern(["Human:1000", "QUERY_ROOT", "a\u{0}b", "Droid:2001"]) } throws: {
            guard let error = $0 as? KeyError else { return false }
            return error.reason == .embeddedNUL && "\(error)".contains("\"a\\0b\" (key 2 of 4)")
        }
        #expect(interner.count == 2)
        #expect(interner.find("QUERY_ROOT") == KeyID(rawValue: 1))
        #expect(interner.find("Droid:2001") == nil)

        // A bad key past the first chunk of 1,024 is named by its index in the whole batch.
        let many = (0..<3_000).map { $0 == 2_500 ? String(repeating: "k", count: 1 << 20) : "Trip:\($0)" }
        #expect { try interner.intern(many) } throws: {
            ($0 as? KeyError)?.reason == .tooLong && "\($0)".contains("(key 2500 of 3000)")
        }
        #expect(interner.count == 2 + 2_500)
        #expect(interner.find("Trip:2499") != nil && interner.find("Trip:2501") == nil)

        // Invalid UTF-8 given as bytes: the ids before it are written, the rest untouched.
        let text: [UInt8] = Array("Human:1000".utf8) + [0x48, 0xFF]
        var ids = [KeyID](repeating: KeyID(rawValue: 99), count: 2)
        #expect {
            try text.withUnsafeBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                let spans = [nc_text(bytes: base, length: 10), nc_text(bytes: base + 10, length: 2)]
                try spans.withUnsafeBufferPointer { spans in
                    try ids.withUnsafeMutableBufferPointer { try interner.intern(utf8: spans, into: $0) }
                }
            }
        } throws: {
            ($0 as? KeyError)?.reason == .invalidUTF8 && "\($0)".contains("(key 1 of 2)")
        }
        #expect(ids == [KeyID(rawValue: 0), KeyID(rawValue: 99)])
    }

    @Test func runningOutOfIDsStopsABatch() throws {
        let interner = try KeyInterner(maxIDs: 3)
        #expect { try interner.intern(["a", "b", "a", "c", "d", "b"]) } throws: {
            ($0 as? KeyError)?.reason == .full && "\($0)".contains("\"d\" (key 4 of 6)")
        }
        #expect(interner.count == 3)
        #expect(try interner.intern(["c", "b", "a"]) == [2, 1, 0].map { KeyID(rawValue: $0) })
    }

    /// A released id goes to the next new key, even when the interner is full; the
    /// released key is gone, and releasing it again says so.
    @Test func aReleasedIDGoesToTheNextNewKey() throws {
        let interner = try KeyInterner(maxIDs: 2)
        let trip = try interner.intern("Trip:1")
        try interner.intern("QUERY_ROOT")
        try interner.release(trip)
        #expect(interner.key(for: trip) == nil && interner.find("Trip:1") == nil)
        #expect(interner.liveCount == 1 && interner.count == 2)
        #expect(throws: KeyError.self) { try interner.release(trip) }
        #expect { try interner.release(KeyID(rawValue: 5)) } throws: { ($0 as? KeyError)?.reason == .notFound }
        #expect(try interner.intern("Trip:2") == trip)
        #expect(interner.key(for: trip) == "Trip:2" && interner.liveCount == 2)
        #expect { try interner.intern("Trip:3") } throws: { ($0 as? KeyError)?.reason == .full }
    }
}
