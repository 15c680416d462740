import CCore

/// Builds canonical entity and field keys in Apollo iOS's formats through the C key core.
/// (A path key, `Droid:2001.modules(installed:true).0`, joins keys that are canonical
/// already: the normalizer makes it, in one place.)
///
/// Keys come back in Unicode NFC, so two spellings Swift considers equal give one key.
/// A builder reuses one buffer and is not thread-safe: give each cache its own.
///
/// ```swift
/// let keys = KeyBuilder()
/// try keys.entityKey(type: "Human", values: ["1000"])               // Human:1000
/// try keys.fieldKey("hero", arguments: ["episode": .string("JEDI")]) // hero(episode:JEDI)
/// ```
package final class KeyBuilder {
    private var buffer = nc_buffer()
    private var encoded: [UInt8] = []

    package init() {}

    deinit { nc_buffer_release(&buffer) }

    /// `Type:value`, or `Type:v1+v2` for several key fields (`\` and `+` escaped).
    package func entityKey(type: String, values: [String]) throws(KeyError) -> String {
        // All values in one contiguous run of bytes, so that every nc_text points into it.
        encoded.removeAll(keepingCapacity: true)
        var lengths: [Int] = []
        for value in values {
            encoded.append(contentsOf: value.utf8)
            lengths.append(value.utf8.count)
        }
        let status = encoded.withUnsafeBufferPointer { joined in
            var texts: [nc_text] = []
            var offset = 0
            for length in lengths {
                let start = joined.baseAddress.map { UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self) }
                texts.append(nc_text(bytes: start, length: length))
                offset += length
            }
            return type.withUTF8Bytes { nc_entity_key(&buffer, $0, $1, texts, texts.count) }
        }
        try KeyError.check(status, "build the entity key of \(type.quotedPreview)")
        return result
    }

    /// `name`, or `name(arg:value,...)` with the arguments sorted and rendered as Apollo does.
    package func fieldKey(_ name: String, arguments: [String: ArgumentValue] = [:]) throws(KeyError) -> String {
        encoded.removeAll(keepingCapacity: true)
        if !arguments.isEmpty { ArgumentValue.encode(entries: arguments, into: &encoded) }
        let status = name.withUTF8Bytes { name, nameLength in
            encoded.withUnsafeBufferPointer { nc_field_key(&buffer, name, nameLength, $0.baseAddress, $0.count) }
        }
        try KeyError.check(status, "build the field key of \(name.quotedPreview)")
        return result
    }

    private var result: String {
        String(decoding: UnsafeRawBufferPointer(start: buffer.bytes, count: buffer.length), as: UTF8.self)
    }
}

extension String {
    /// The string's UTF-8 bytes (not NUL-terminated) and their count, for C calls that take lengths.
    func withUTF8Bytes<R>(_ body: (UnsafePointer<CChar>?, Int) -> R) -> R {
        var copy = self
        return copy.withUTF8 { bytes in
            body(bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count)
        }
    }
}
