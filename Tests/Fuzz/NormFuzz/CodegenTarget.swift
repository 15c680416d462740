import Foundation
import NormCodegen
import NormProject

extension FuzzTarget {
    /// A small schema of objects, interfaces (some implementing others) and unions, and an
    /// operation with fragments, both made from the bytes (``RandomProject``), loaded as a
    /// project and generated. Most operations are valid; the rest name fields, types and
    /// fragments that are not there, or spread fragments in a cycle. A refusal must name
    /// the file, line and column of each problem.
    static let codegen = FuzzTarget(name: "codegen", feeds: "bytes that choose a schema and an operation: loaded as a project and generated") { bytes in
        var random = RandomProject(bytes)
        let files = ["schema.graphqls": random.schema(), "Operation.graphql": random.operation()]
        for (name, text) in files { try! text.write(toFile: codegenDirectory + "/" + name, atomically: false, encoding: .utf8) }
        do throws(ProjectError) {
            _ = try CodeGenerator(project: Project(directory: codegenDirectory)).files()
        } catch {
            for problem in error.problems where problem.file == nil || problem.line == nil || problem.column == nil {
                fatalError("a refusal without its place: \(problem)\n\(files["schema.graphqls"]!)\n\(files["Operation.graphql"]!)")
            }
        }
    }

    /// The project folder the codegen target rewrites for each input.
    private static let codegenDirectory: String = {
        let path = NSTemporaryDirectory() + "normfuzz-codegen-\(getpid())"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
}

/// A GraphQL schema and an operation chosen by bytes, each byte a choice (0 once they run
/// out): up to five object types, four interfaces and three unions, maybe an enum whose
/// values may become one Swift case, and a query of up to three root fields with inline
/// fragments, fragment spreads, aliases and `@include`.
///
/// ```swift
/// var random = RandomProject(bytes)
/// random.schema()      // "type Query { f0: I1 }\ninterface I0 { ... }\n...type O1 implements I0 & I1 { ... }\nunion U0 = O0 | O1\n"
/// random.operation()   // "query Q($flag: Boolean!) {\n  f0 { ... on I0 { ...F1 i0 } }\n  ...}\nfragment F0 on U0 { ... }\n..."
/// ```
struct RandomProject {
    private var bytes: [UInt8]
    private var next = 0
    private var objects: [(name: String, interfaces: [Int], fields: [String: String])] = []
    private var interfaces: [(name: String, parents: [Int], fields: [String: String])] = []
    private var unions: [(name: String, members: [Int])] = []
    private var rootFields: [String: String] = [:]
    /// The values of the enum `Kind`, when the schema has it (some of them become one Swift case).
    private var kinds: [String] = []
    private var fragmentTypes: [String] = []
    /// The fragment whose selections are being made: it spreads only those after it, so
    /// that spreads make no cycle (but now and then).
    private var currentFragment = -1

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = Array(bytes) }
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next choice among `count` (0 when the bytes are used up).
    private mutating func choose(_ count: Int) -> Int {
        guard next < bytes.count, count > 1 else { return 0 }
        defer { next += 1 }
        return Int(bytes[next]) % count
    }

    private var compositeNames: [String] { objects.map(\.name) + interfaces.map(\.name) + unions.map(\.name) }

    /// A field type: a composite type, nullable or not, maybe a list.
    private mutating func compositeType(_ names: [String]) -> String {
        let name = names[choose(names.count)]
        switch choose(4) {
        case 0: return name + "!"
        case 1: return "[\(name)!]"
        default: return name
        }
    }

    mutating func schema() -> String {
        let objectCount = 1 + choose(5), interfaceCount = choose(5), unionCount = choose(4)
        let names = (0..<objectCount).map { "O\($0)" } + (0..<interfaceCount).map { "I\($0)" } + (0..<unionCount).map { "U\($0)" }
        // Interfaces first: an interface may implement those before it, and has their fields.
        for index in 0..<interfaceCount {
            var parents: [Int] = []
            for parent in 0..<index where choose(3) == 0 { parents.append(parent) }
            parents = Array(Set(parents + parents.flatMap { interfaces[$0].parents })).sorted()
            var fields = ["i\(index)": "String!", "link\(index)": compositeType(names)]
            for parent in parents { fields.merge(interfaces[parent].fields) { own, _ in own } }
            interfaces.append(("I\(index)", parents, fields))
        }
        if choose(2) == 1 {
            let pool = ["A_B", "aB", "AB", "ab", "C"]
            kinds = Array(Set((0...choose(3)).map { _ in pool[choose(pool.count)] })).sorted()
        }
        for index in 0..<objectCount {
            var implemented: [Int] = []
            for interface in 0..<interfaceCount where choose(2) == 0 { implemented.append(interface) }
            implemented = Array(Set(implemented + implemented.flatMap { interfaces[$0].parents })).sorted()
            var fields = ["id": "ID!", "o\(index)": "Int", "child\(index)": compositeType(names)]
            for interface in implemented { fields.merge(interfaces[interface].fields) { own, _ in own } }
            if !kinds.isEmpty { fields["kind"] = "Kind" }
            objects.append(("O\(index)", implemented, fields))
        }
        for index in 0..<unionCount {
            var members = (0..<objectCount).filter { _ in choose(2) == 0 }
            if members.isEmpty { members = [choose(objectCount)] }
            unions.append(("U\(index)", members))
        }
        for index in 0..<(1 + choose(3)) { rootFields["f\(index)"] = compositeType(names) }

        func fieldList(_ fields: [String: String]) -> String { fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: " ") }
        var sdl = "type Query { \(fieldList(rootFields)) }\n"
        for interface in interfaces {
            let implements = interface.parents.isEmpty ? "" : " implements " + interface.parents.map { "I\($0)" }.joined(separator: " & ")
            sdl += "interface \(interface.name)\(implements) { \(fieldList(interface.fields)) }\n"
        }
        for object in objects {
            let implements = object.interfaces.isEmpty ? "" : " implements " + object.interfaces.map { "I\($0)" }.joined(separator: " & ")
            sdl += "type \(object.name)\(implements) { \(fieldList(object.fields)) }\n"
        }
        for union in unions { sdl += "union \(union.name) = " + union.members.map { "O\($0)" }.joined(separator: " | ") + "\n" }
        if !kinds.isEmpty { sdl += "enum Kind {\n" + kinds.map { "  \($0)\n" }.joined() + "}\n" }
        return sdl
    }

    /// The fields a selection on `type` may name; nil for a type the schema lacks.
    private func fields(of type: String) -> [String: String]? {
        if let object = objects.first(where: { $0.name == type }) { return object.fields }
        if let interface = interfaces.first(where: { $0.name == type }) { return interface.fields }
        if unions.contains(where: { $0.name == type }) { return [:] }
        return nil
    }

    private static func namedType(_ type: String) -> String { type.filter { $0.isLetter || $0.isNumber } }

    /// The object types a value of composite type `name` may be.
    private func possibleTypes(of name: String) -> Set<String> {
        if let index = interfaces.firstIndex(where: { $0.name == name }) {
            return Set(objects.filter { $0.interfaces.contains(index) }.map(\.name))
        }
        if let union = unions.first(where: { $0.name == name }) { return Set(union.members.map { "O\($0)" }) }
        return [name]
    }

    /// The composite types a selection on `type` may narrow to, as GraphQL allows: those
    /// that share a possible type with it.
    private func overlapping(_ type: String) -> [String] {
        compositeNames.filter { !possibleTypes(of: $0).isDisjoint(with: possibleTypes(of: type)) }
    }

    /// A selection set on `type`, at most `depth` deep, each selection one choice of the bytes.
    private mutating func selectionSet(on type: String, depth: Int) -> String {
        var selections: [String] = []
        for _ in 0..<(1 + choose(4)) {
            let choice = choose(16)
            let condition = choose(6) == 5 ? " @include(if: $flag)" : ""
            switch choice {
            case 0...6:
                let own = fields(of: type) ?? [:]
                let candidates = own.keys.sorted() + ["__typename"]
                // Now and then a field of another type: an operation the schema rejects.
                let name = choose(64) == 63 ? "missing" : candidates[choose(candidates.count)]
                let alias = choose(5) == 4 ? "\(name)Alias: " : ""
                guard let fieldType = own[name].map(Self.namedType), fields(of: fieldType) != nil else {
                    selections.append("\(alias)\(name)\(condition)")
                    continue
                }
                // An object field one level too deep would be left without a selection: `__typename` instead.
                selections.append(depth > 0 ? "\(alias)\(name)\(condition) { \(selectionSet(on: fieldType, depth: depth - 1)) }" : "__typename")
            case 7...11 where depth > 0:
                // Now and then a type that does not overlap, or none of the schema's.
                let names = choose(32) == 31 ? compositeNames + ["Nowhere"] : overlapping(type)
                let target = names.isEmpty ? type : names[choose(names.count)]
                selections.append("... on \(target)\(condition) { \(selectionSet(on: target, depth: depth - 1)) }")
            case 12...14 where !fragmentTypes.isEmpty:
                // Now and then a fragment on a type that does not overlap, or one not defined.
                let fits = overlapping(type)
                let candidates = choose(32) == 31 ? Array(0...fragmentTypes.count)
                    : fragmentTypes.indices.filter { $0 > currentFragment && fits.contains(fragmentTypes[$0]) }
                guard !candidates.isEmpty else { selections.append("__typename"); continue }
                selections.append("...F\(candidates[choose(candidates.count)])\(condition)")
            default:
                selections.append("__typename")
            }
        }
        return selections.joined(separator: " ")
    }

    mutating func operation() -> String {
        let names = compositeNames
        fragmentTypes = (0..<choose(4)).map { _ in names[choose(names.count)] }
        // Now and then deeper than codegen's limit of 64 nested types.
        let depth = choose(8) == 7 ? 80 : 6
        var text = "query Q($flag: Boolean!) {\n"
        for (name, type) in rootFields.sorted(by: { $0.key < $1.key }) where choose(4) != 0 {
            text += "  \(name) { \(selectionSet(on: Self.namedType(type), depth: depth)) }\n"
        }
        text += "  __typename @include(if: $flag)\n}\n"
        for (index, type) in fragmentTypes.enumerated() {
            currentFragment = index
            text += "fragment F\(index) on \(type) { \(selectionSet(on: type, depth: 3)) }\n"
        }
        return text
    }
}
