@testable import NormCache

extension FuzzTarget {
    /// A GraphQL response (JSON text) normalized against each of three compiled operations
    /// of the Apollo iOS Star Wars fixture (Tests/Fixtures), with their variables, into one
    /// cache; each operation is then read back, partial results allowed.
    static let response = FuzzTarget(name: "response", feeds: "a JSON response, written for three operations into a cache and read back") { bytes in
        guard let response = try? JSON.parse(bytes: bytes) else { return }
        let cache = try! NormalizedCache()
        for (operation, variables) in starWarsOperations {
            _ = try? cache.write(response: response, for: cache.operation(operation), variables: variables)
        }
        for (operation, variables) in starWarsOperations {
            _ = try? cache.read(cache.operation(operation), variables: variables, partial: true)
        }
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
