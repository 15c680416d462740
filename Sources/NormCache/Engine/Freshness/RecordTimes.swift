/// One record's received times as they are kept outside memory: in the store, beside the
/// record (``RecordChange/received``), and in a snapshot (``NormalizedCache/extract()``'s
/// `__META`). ``ReceivedTimes`` decides them; this is their JSON, one object a record:
///
/// ```json
/// {"at":1900000000,"maxAge":60,"fields":{"name":{"at":1900000300}}}
/// ```
///
/// `at`: when the record was received, in seconds since 1970 by the cache's clock (absent:
/// unknown); `maxAge`: the seconds its response said it stays fresh (absent: none);
/// `fields`: the fields received apart from the rest of the record, each with its own
/// `at` and `maxAge`, by field key. A record without one is of unknown age: never stale.
///
/// ```swift
/// let times = try RecordTimes(json: JSON.parse(text), place: "Trip:1", fieldID: state.keys.fieldID)
/// times.json(fieldKey: state.keys.fieldKey)   // the same object again
/// ```
struct RecordTimes {
    /// The record's receipt; nil: unknown.
    var receipt: ReceivedTimes.Receipt?
    /// The fields with a receipt of their own, by field id.
    var fields: [(field: UInt32, receipt: ReceivedTimes.Receipt)] = []

    init(receipt: ReceivedTimes.Receipt?, fields: [(field: UInt32, receipt: ReceivedTimes.Receipt)]) {
        self.receipt = receipt
        self.fields = fields
    }

    /// The JSON object, field keys named by `fieldKey` and in their order.
    func json(fieldKey: (UInt32) -> String) -> CacheValue {
        var object = Self.json(receipt)
        if !fields.isEmpty {
            var named = CacheObject(capacity: fields.count)
            for (key, receipt) in fields.map({ (fieldKey($0.field), $0.receipt) }).sorted(by: { $0.0 < $1.0 }) {
                named.appendNew(key, .object(Self.json(receipt)))
            }
            object.appendNew("fields", .object(named))
        }
        return .object(object)
    }

    private static func json(_ receipt: ReceivedTimes.Receipt?) -> CacheObject {
        var object = CacheObject()
        guard let receipt else { return object }
        object.appendNew("at", number(receipt.at))
        if let maxAge = receipt.maxAge { object.appendNew("maxAge", number(maxAge)) }
        return object
    }

    /// Whole seconds as an integer, others as they are.
    private static func number(_ seconds: Double) -> CacheValue {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? .int(Int64(seconds)) : .double(seconds)
    }

    /// The times the JSON object `value` holds, field keys made ids by `fieldID`; a clear
    /// error naming `place` for anything else.
    init(json value: CacheValue, place: String, fieldID: (String) throws(CacheError) -> UInt32) throws(CacheError) {
        guard case .object(let object) = value else {
            throw .invalid("\(place): received times must be an object {\"at\":…, \"maxAge\":…, \"fields\":{…}}, not \(value.kindDescription)")
        }
        receipt = try Self.receipt(in: object, place: place)
        for (key, _) in object.members where !["at", "maxAge", "fields"].contains(key) {
            throw .invalid("\(place): received times have no member \"\(key)\" (they have at, maxAge and fields)")
        }
        guard let members = object["fields"] else { return }
        guard case .object(let named) = members else {
            throw .invalid("\(place): received times' \"fields\" must be an object of field keys, not \(members.kindDescription)")
        }
        for (key, times) in named.members {
            let fieldPlace = "\(place), field \"\(key)\""
            guard case .object(let own) = times, let receipt = try Self.receipt(in: own, place: fieldPlace) else {
                throw .invalid("\(fieldPlace): a field's received time must be an object with \"at\"")
            }
            fields.append((try fieldID(key), receipt))
        }
    }

    /// The receipt of an object's `at` and `maxAge`; nil without `at`.
    private static func receipt(in object: CacheObject, place: String) throws(CacheError) -> ReceivedTimes.Receipt? {
        func seconds(_ name: String) throws(CacheError) -> Double? {
            guard let value = object[name] else { return nil }
            let number: Double
            switch value {
            case .int(let int): number = Double(int)
            case .double(let double): number = double
            default: throw .invalid("\(place): \"\(name)\" must be a number of seconds, not \(value.kindDescription)")
            }
            guard number.isFinite, number >= 0 else { throw .invalid("\(place): \"\(name)\" must be 0 seconds or more, not \(number)") }
            return number
        }
        let maxAge = try seconds("maxAge")
        guard let at = try seconds("at") else {
            if maxAge != nil { throw .invalid("\(place): received times with a \"maxAge\" need an \"at\"") }
            return nil
        }
        return ReceivedTimes.Receipt(at: at, maxAge: maxAge)
    }
}
