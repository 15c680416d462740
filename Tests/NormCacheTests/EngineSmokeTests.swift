import Testing
@testable import NormCache

@Suite struct EngineSmokeTests {
    @Test func writeReadWatch() throws {
        let cache = try NormalizedCache()
        let op = try cache.operation("query Hero($ep: Episode) { hero(episode: $ep) { name friends(first: 2) { name } } }")
        let data = try JSON.parse(#"{"hero":{"__typename":"Human","id":"1000","name":"Luke","friends":[{"__typename":"Droid","id":"2001","name":"R2"},{"__typename":"Human","name":"Anon"}]}}"#)
        guard case .object(let object) = data else { Issue.record("not an object"); return }
        let changed = try cache.write(data: object, for: op, variables: ["ep": "JEDI"])
        print(changed)
        print(cache.keys())
        print(cache.takeWarnings())
        let result = try cache.read(op, variables: ["ep": "JEDI"])
        print(JSON.string(result.data ?? .null))
        #expect(result.complete)
        let missing = try cache.read(op, variables: ["ep": "EMPIRE"])
        #expect(missing.missing == ["QUERY_ROOT.hero(episode:EMPIRE)"])
        final class Box: @unchecked Sendable { var emissions: [WatchEmission] = [] }
        let box = Box()
        let watch = try cache.watch(op, variables: ["ep": "JEDI"]) { box.emissions.append($0) }
        try cache.write(record: "Droid:2001", fields: ["name": "R2-D2"])
        try cache.write(record: "Droid:2001", fields: ["name": "R2-D2"])
        #expect(box.emissions.map(\.cause) == [.initial, .write])
        #expect(box.emissions.last?.changed == ["Droid:2001.name"])
        try cache.evict("Droid:2001")
        #expect(box.emissions.map(\.cause) == [.initial, .write, .evict])
        print(box.emissions.last!.result.missing)
        print(JSON.string(cache.extract()))
        watch.cancel()
    }
}
