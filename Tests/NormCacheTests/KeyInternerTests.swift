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
}
