import NormCache
import Testing
@testable import Workbench

/// `.graph`'s DOT text: nodes, edges, absent records, escapes and depth, exactly.
@Suite struct RecordGraphTests {
    /// A root with a list, a dangling reference and a field with arguments; a trip with a
    /// path-keyed object; a trip whose name needs escapes and is too long to show whole.
    let records: [String: CacheObject] = [
        "QUERY_ROOT": ["trips": .list([.reference("Trip:1"), .reference("Trip:2")]), #"trip({"id":"9"})"#: .reference("Trip:9")],
        "Trip:1": ["id": "1", "name": "Lisbon", "location": .reference("Trip:1.location")],
        "Trip:1.location": ["lat": 38.5, "tags": .list(["old", "sea"])],
        "Trip:2": ["id": "2", "name": .string("Say \"hi\" {a|b} <c> \\ then\na very long line")],
    ]

    func dot(_ start: String, depth: Int) -> String {
        RecordGraph(around: [start], depth: depth) { records[$0] }.dot
    }

    @Test func depthZeroIsTheRecordAlone() {
        #expect(dot("QUERY_ROOT", depth: 0) == """
            digraph records {
              node [shape=record];
              "QUERY_ROOT" [label="{QUERY_ROOT}"];
            }
            """)
    }

    /// Depth 1: the trips, and Trip:9 drawn absent; depth 2 adds Trip:1's path-keyed location.
    @Test func eachDepthAddsWhatTheLastRefersToAndDrawsADanglingReferenceAbsent() {
        let deeper = dot("QUERY_ROOT", depth: 2)
        let location = deeper.split(separator: "\n").filter { $0.contains("\"Trip:1.location\" [") || $0.contains("-> \"Trip:1.location\"") }
        #expect(location.count == 2)
        #expect(dot("QUERY_ROOT", depth: 1) == deeper.split(separator: "\n").filter { !location.contains($0) }.joined(separator: "\n"))
        #expect(deeper == #"""
            digraph records {
              node [shape=record];
              "QUERY_ROOT" [label="{QUERY_ROOT}"];
              "Trip:1" [label="{Trip:1|id: \"1\"\lname: \"Lisbon\"\l}"];
              "Trip:1.location" [label="{Trip:1.location|lat: 38.5\ltags: [\"old\",\"sea\"]\l}"];
              "Trip:2" [label="{Trip:2|id: \"2\"\lname: \"Say \\\"hi\\\" \{a\|b\} \<c\> \\\\ then\\na very l…\l}"];
              "Trip:9" [label="{Trip:9|absent}", style=dashed];
              "QUERY_ROOT" -> "Trip:9" [label="trip({\"id\":\"9\"})"];
              "QUERY_ROOT" -> "Trip:1" [label="trips[0]"];
              "QUERY_ROOT" -> "Trip:2" [label="trips[1]"];
              "Trip:1" -> "Trip:1.location" [label="location"];
            }
            """#)
    }

    @Test func aStartSetOfSeveralRecordsDrawsTheReferencesBetweenThem() {
        let graph = RecordGraph(around: ["Trip:1.location", "Trip:1"], depth: 0) { records[$0] }
        #expect(graph.dot == #"""
            digraph records {
              node [shape=record];
              "Trip:1" [label="{Trip:1|id: \"1\"\lname: \"Lisbon\"\l}"];
              "Trip:1.location" [label="{Trip:1.location|lat: 38.5\ltags: [\"old\",\"sea\"]\l}"];
              "Trip:1" -> "Trip:1.location" [label="location"];
            }
            """#)
    }
}
