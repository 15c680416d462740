@testable import NormCache

extension FuzzTarget {
    /// A GraphQL response (JSON text) normalized against each of three compiled operations
    /// of the Apollo iOS Star Wars fixture (Tests/Fixtures), with their variables, into one
    /// cache; each operation is then read back, partial results allowed. Each write is made
    /// twice, from the parsed tree (`write(response:)`) and from the bytes
    /// (`write(responseJSON:)`) into a second cache: both must end alike, refused text
    /// included (then with the same `JSONError`).
    static let response = FuzzTarget(name: "response", feeds: "a JSON response, written for three operations from its tree and from its bytes alike, and read back") { bytes in
        let parsed = Result { () throws(JSONError) in try JSON.parse(bytes: bytes) }
        let tree = try! NormalizedCache(), tape = try! NormalizedCache()
        for (operation, variables) in starWarsOperations {
            let fromTree = WriteOutcome(of: tree) { cache throws(CacheError) in
                try cache.write(response: parsed.mapError(CacheError.json).get(), for: cache.operation(operation), variables: variables)
            }
            let fromBytes = WriteOutcome(of: tape) { cache throws(CacheError) in
                try cache.write(responseJSON: bytes, for: cache.operation(operation), variables: variables)
            }
            guard fromBytes == fromTree else {
                fatalError("""
                    write(responseJSON:) differs from JSON.parse and write(response:)
                    operation: \(operation.prefix(40))…
                    from the tree:  \(fromTree)
                    from the bytes: \(fromBytes)
                    """)
            }
        }
        for (operation, variables) in starWarsOperations {
            _ = try? tree.read(tree.operation(operation), variables: variables, partial: true)
        }
    }

    /// What a write did: its error, then what changed, the warnings and the cache's records,
    /// as bytes (Swift's `==` takes canonically equivalent text for equal: `"\u{212A}"` for `"K"`).
    private struct WriteOutcome: Equatable, CustomStringConvertible {
        let error: CacheError?
        let text: [UInt8]
        let possibleTypes: PossibleTypes

        init(of cache: NormalizedCache, _ write: (NormalizedCache) throws(CacheError) -> Changes) {
            var lines: [String]
            do {
                lines = try write(cache).keys
                error = nil
            } catch {
                lines = ["\(error)"]
                self.error = error
            }
            lines += cache.takeWarnings() + [JSON.string(cache.extract(), sortedKeys: true)]
            text = Array(lines.joined(separator: "\n").utf8)
            possibleTypes = cache.possibleTypes
        }

        var description: String { String(decoding: text.prefix(2000), as: UTF8.self) }
    }

    /// The fixture's operations (interfaces, a union, aliases, arguments from variables and
    /// literals, an input object) and the variables Apollo iOS ran them with.
    private static let starWarsOperations: [(String, CacheObject)] = [
        ("""
        query HeroAndFriends($episode: Episode, $first: Int) {
          hero(episode: $episode) {
            id name friends(first: $first) { id name }
            ... on Droid { primaryFunction modules(installed: true) { name version } }
          }
          empireHero: hero(episode: EMPIRE) { id name ... on Human { height looks: appearance { eyeColor hairColor } } }
        }
        """, ["episode": "JEDI", "first": 3]),
        ("""
        query HumanDetail($id: ID!, $unit: LengthUnit, $friendsFirst: Int) {
          human(id: $id) {
            id name height heightInUnit: height(unit: $unit) heightInMeters: height(unit: METER)
            appearance { eyeColor hairColor } starships { id name length } friends(first: $friendsFirst) { id name }
          }
        }
        """, ["id": "1000", "unit": "FOOT"]),
        ("""
        query Search($text: String!, $filter: SearchFilter) {
          search(text: $text, filter: $filter) {
            ... on Human { id name homePlanet mass starships { id name } }
            ... on Droid { id name primaryFunction }
            ... on Starship { id name length }
          }
        }
        """, ["text": "Padmé, R2", "filter": ["includeDroids": true, "kinds": ["Human", "Droid"], "range": ["max": 30, "min": 1.5]]]),
    ]
}
