import NormCache
@testable import NormClient
import Testing

/// MultipartReader and IncrementalResponse: an answer in parts, however its bytes are
/// split, and each way one goes wrong, named by its part.
@Suite struct MultipartReaderTests {
    private let contentType = #"multipart/mixed;boundary="-";deferSpec=20220824"#
    private let initial = #"{"data":{"trip":{"id":"1","name":"Lisbon"}},"hasNext":true}"#
    private let later = #"{"incremental":[{"data":{"notes":"Tram 28 --- early"},"path":["trip"],"label":"details"}],"hasNext":false}"#

    private func body(_ parts: [String], close: Bool = true, leadingCRLF: Bool = true) -> [UInt8] {
        var text = leadingCRLF ? "\r\n---" : "---"
        for part in parts { text += "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n" + part + "\r\n---" }
        if close { text += "--\r\n" }
        return Array(text.utf8)
    }

    /// Reads `bytes` in two chunks split at `offset`, then finishes.
    private func read(_ bytes: [UInt8], splitAt offset: Int, contentType: String? = nil) throws -> [MultipartReader.Part] {
        var reader = try MultipartReader(contentType: contentType ?? self.contentType)
        return try reader.read(bytes[..<offset]) + reader.read(bytes[offset...]) + reader.finish()
    }

    @Test func partsComeWholeWhereverTheBytesAreSplit() throws {
        let bytes = body([initial, later])
        for offset in 0...bytes.count {
            let parts = try read(bytes, splitAt: offset)
            #expect(parts.map(\.number) == [1, 2], "split at \(offset)")
            #expect(parts.first?.object["data"] == ["trip": ["id": "1", "name": "Lisbon"]], "split at \(offset)")
            #expect(parts.last?.object["hasNext"] == false, "split at \(offset)")
        }
    }

    @Test func aPartIsHandedOutAsSoonAsTheNextDelimiterArrives() throws {
        var reader = try MultipartReader(contentType: contentType)
        let bytes = body([initial, later])
        let firstEnd = bytes.count - Array((later + "\r\n-----\r\n").utf8).count - Array("\r\ncontent-type: application/json; charset=utf-8\r\n\r\n".utf8).count
        #expect(try reader.read(bytes[..<firstEnd]).map(\.number) == [1])
        #expect(try reader.read(bytes[firstEnd...]).map(\.number) == [2])
        #expect(try reader.finish().isEmpty)
    }

    @Test func aBodyWithoutTheLeadingCRLFOrTheCloseLosesNoPart() throws {
        #expect(try read(body([initial, later], close: false, leadingCRLF: false), splitAt: 5).map(\.number) == [1, 2])
    }

    @Test func partsWithoutHeadersAndPreamblesRead() throws {
        let text = "preamble\r\n---\r\n\r\n" + initial + "\r\n---\r\n" + later + "\r\n-----\r\nepilogue"
        #expect(try read(Array(text.utf8), splitAt: 3).map(\.number) == [1, 2])
    }

    @Test func theContentTypeMustNameABoundaryAndAKnownProtocol() throws {
        #expect(throws: TransportError.invalidResponse("the multipart answer's Content-Type `multipart/mixed;deferSpec=20220824` names no boundary")) {
            try MultipartReader(contentType: "multipart/mixed;deferSpec=20220824")
        }
        #expect(throws: TransportError.invalidResponse(
            "the multipart answer's Content-Type `multipart/mixed; boundary=\"-\"` names no protocol, neither deferSpec=20220824 nor subscriptionSpec=1.0")) {
            try MultipartReader(contentType: #"multipart/mixed; boundary="-""#)
        }
        #expect(throws: TransportError.invalidResponse(
            "the multipart answer's Content-Type `multipart/mixed;boundary=-;deferSpec=\"20220824\"` names the protocol `deferSpec=\"20220824\"`, not deferSpec=20220824 nor subscriptionSpec=1.0")) {
            try MultipartReader(contentType: #"multipart/mixed;boundary=-;deferSpec="20220824""#)
        }
        let subscription = try MultipartReader(contentType: "multipart/mixed; boundary=graphql; subscriptionSpec=1.0")
        #expect(subscription.spec == .subscriptionSpec)
        #expect(subscription.boundary == "graphql")
    }

    @Test func badPartsAreNamedByNumber() throws {
        #expect(throws: TransportError.invalidResponse(#"part 2 of the multipart answer is not valid JSON: invalid JSON at line 1, column 11: expected ':' after member name "hasNext""#)) {
            _ = try read(body([initial, #"{"hasNext""#]), splitAt: 0)
        }
        #expect(throws: TransportError.invalidResponse("part 1 of the multipart answer is a list, not a JSON object")) {
            _ = try read(body(["[1]"]), splitAt: 0)
        }
        let html = Array("\r\n---\r\ncontent-type: text/html\r\n\r\n<p>\r\n-----\r\n".utf8)
        #expect(throws: TransportError.invalidResponse("part 1 of the multipart answer is `text/html`, not application/json")) {
            _ = try read(html, splitAt: 0)
        }
    }

    @Test func aDeferBodyMustEndWithHasNextFalse() throws {
        #expect(throws: TransportError.invalidResponse(#"the multipart answer ended after part 1 without a part saying "hasNext": false"#)) {
            _ = try read(body([initial]), splitAt: 0)
        }
        #expect(throws: TransportError.invalidResponse("the multipart answer has no part: no `---` in its body")) {
            _ = try read(Array("{}".utf8), splitAt: 1)
        }
    }

    // MARK: merging the parts

    private func part(_ number: Int, _ json: String) throws -> MultipartReader.Part {
        guard case .object(let object) = try JSON.parse(json) else { throw TransportError.invalidResponse("not an object") }
        return MultipartReader.Part(number: number, object: object)
    }

    @Test func incrementalItemsMergeAtTheirPath() throws {
        var response = try IncrementalResponse(initial: part(1, #"{"data":{"trips":[{"id":"1"},{"id":"2","stops":[]}]},"hasNext":true}"#))
        try response.apply(part(2, #"{"incremental":[{"data":{"name":"Faro"},"path":["trips",1],"label":"a"}],"hasNext":true}"#))
        try response.apply(part(3, #"{"incremental":[{"data":{"name":"Lisbon"},"path":["trips",0],"errors":[{"message":"slow"}]}],"hasNext":false}"#))
        #expect(response.response == [
            "data": ["trips": [["id": "1", "name": "Lisbon"], ["id": "2", "stops": [], "name": "Faro"]]],
            "errors": [["message": "slow"]], "hasNext": false,
        ])
        #expect(!response.hasNext)
    }

    @Test func mergingFailuresSayWhichPart() throws {
        #expect(throws: TransportError.invalidResponse(
            #"part 1 of the multipart answer is an incremental part, but no initial part (with "data") came before it"#)) {
            try IncrementalResponse(initial: part(1, #"{"incremental":[],"hasNext":true}"#))
        }
        var response = try IncrementalResponse(initial: part(1, #"{"data":{"trip":{"id":"1"}},"hasNext":true}"#))
        #expect(throws: TransportError.invalidResponse(
            #"the path ["trip","stops",0] of incremental item 1 of part 2 of the multipart answer does not resolve in the response: no "stops" there"#)) {
            try response.apply(part(2, #"{"incremental":[{"data":{"name":"x"},"path":["trip","stops",0]}],"hasNext":false}"#))
        }
        #expect(throws: TransportError.invalidResponse(#"incremental item 1 of part 2 of the multipart answer has no "path" list"#)) {
            try response.apply(part(2, #"{"incremental":[{"data":{"name":"x"}}],"hasNext":false}"#))
        }
        #expect(throws: TransportError.invalidResponse(#"part 3 of the multipart answer has no "hasNext" (true or false)"#)) {
            try response.apply(part(3, #"{"incremental":[]}"#))
        }
    }
}
