import NormCache

/// What `.maxage` was given: nothing (show the max ages), a default (`.maxage 300`,
/// `.maxage off`) or a coordinate's rule (`.maxage Trip 300`, `.maxage Trip.name 30`,
/// `.maxage User inherit`, `.maxage Trip.name off`). A schema, when the endpoint has one,
/// must define the type and field named.
///
/// ```swift
/// try MaxAgeArgument(["Trip.name", "30"], schema: nil)   // .rule("Trip.name", .seconds(30))
/// try MaxAgeArgument(["-5"], schema: nil)                // throws: .maxage takes SECONDS (0 or more), inherit or off, not "-5"
/// ```
enum MaxAgeArgument: Equatable {
    case show
    case defaultMaxAge(Double?)
    case rule(String, MaxAges.Rule?)

    init(_ words: [String], schema: PossibleTypes?) throws(CommandError) {
        switch words.count {
        case 0: self = .show
        case 1:
            guard words[0] != "inherit" else { throw CommandError(".maxage inherit needs a TYPE or TYPE.FIELD: the default has no parent to inherit from") }
            self = .defaultMaxAge(try Self.seconds(words[0]))
        default:
            let coordinate = words[0]
            try Self.check(coordinate, against: schema)
            self = .rule(coordinate, words[1] == "inherit" ? .inherit : try Self.seconds(words[1]).map(MaxAges.Rule.seconds))
        }
    }

    /// Seconds (0 or more) or nil for `off`.
    private static func seconds(_ word: String) throws(CommandError) -> Double? {
        if word == "off" { return nil }
        guard let seconds = Double(word), seconds >= 0, seconds.isFinite else {
            throw CommandError(".maxage takes SECONDS (0 or more), inherit or off, not \"\(word)\"")
        }
        return seconds
    }

    /// That the schema defines the type of `coordinate` and its field, if it names one.
    private static func check(_ coordinate: String, against schema: PossibleTypes?) throws(CommandError) {
        let parts = coordinate.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, !parts.contains(where: \.isEmpty) else {
            throw CommandError(".maxage takes TYPE or TYPE.FIELD, not \"\(coordinate)\"")
        }
        guard let schema, schema.fromSchema else { return }
        let fields = schema.outputFields(of: parts[0])
        guard fields != nil || !schema.types(satisfying: parts[0]).isEmpty else {
            throw CommandError(".maxage: the schema has no type \"\(parts[0])\"")
        }
        if parts.count == 2, fields?[parts[1]] == nil {
            throw CommandError(".maxage: \(parts[0]) has no field \"\(parts[1])\" in the schema")
        }
    }
}
