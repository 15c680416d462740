import Foundation
import NormCodegen
import NormProject
import TestSupport
import Testing

/// Generated code is checked in and kept current: every checked-in output is what codegen
/// writes today, byte for byte, and a run with nothing changed touches no file.
@Suite struct CheckedInOutputTests {
    /// Every project whose generated Swift is checked in, with its output folder (the
    /// example app's configuration says where under its folder, as Apollo iOS's does).
    static let outputs = [
        (project: "examples/TripsApp", output: "examples/TripsApp", embedsSchema: false),
        (project: "Tests/Codegen/KitchenSink", output: "Tests/Codegen/KitchenSink/Generated", embedsSchema: false),
        (project: "Plugins/Trips/GraphQL", output: "Plugins/Trips/Generated", embedsSchema: true),
        (project: "Sources/NormBench/GraphQL", output: "Sources/NormBench/Generated", embedsSchema: false),
        (project: "Plugins/Purls/GraphQL", output: "Plugins/Purls/Generated", embedsSchema: true),
        (project: "Plugins/Donuts/GraphQL", output: "Plugins/Donuts/Generated", embedsSchema: true),
        (project: "Plugins/Feed/GraphQL", output: "Plugins/Feed/Generated", embedsSchema: true),
    ]

    @Test(arguments: outputs.map(\.project))
    func checkedInOutputIsCurrent(project: String) throws {
        let checkedIn = Self.outputs.first { $0.project == project }!
        let output = ProjectDirectory.repository + "/" + checkedIn.output
        let files = try CodeGenerator(project: Project(directory: ProjectDirectory.repository + "/" + project), embedsSchema: checkedIn.embedsSchema,
                                      outputFolder: output).files()
        for file in files where !file.isTeamOwned {
            let onDisk = FileManager.default.contents(atPath: output + "/" + file.path).map { String(decoding: $0, as: UTF8.self) }
            #expect(onDisk == file.contents, "\(file.path) is not what codegen writes: run `normcache codegen --project \(project) --output \(checkedIn.output)\(checkedIn.embedsSchema ? " --embed-schema" : "")`")
        }
        let generated = try Self.generatedFiles(in: output)
        let marked = files.filter { $0.contents.hasPrefix(CodeGenerator.generatedMarker) }
        #expect(generated == marked.map(\.path).sorted(), "files codegen no longer writes are checked in")
    }

    @Test func aSecondRunWritesNothingAndLeavesModificationTimes() throws {
        let folder = NSTemporaryDirectory() + "normcodegen-" + UUID().uuidString
        let files = try CodeGenerator(project: Project(directory: ProjectDirectory.tripsApp)).files()
        let first = try GeneratedOutput(folder: folder).write(files)
        #expect(first.written.count == files.count)
        let before = try Self.modificationTimes(in: folder)
        Thread.sleep(forTimeInterval: 0.05)
        let second = try GeneratedOutput(folder: folder).write(files)
        #expect(second == GeneratedOutput.Report(written: [], removed: [], unchanged: files.count))
        #expect(try Self.modificationTimes(in: folder) == before)
    }

    @Test func filesCodegenNoLongerWritesGoAndTheTeamsFilesStay() throws {
        let folder = NSTemporaryDirectory() + "normcodegen-" + UUID().uuidString
        let files = try CodeGenerator(project: Project(directory: ProjectDirectory.repository + "/Tests/Codegen/KitchenSink")).files()
        _ = try GeneratedOutput(folder: folder).write(files)
        // The team replaces the custom scalar's alias; it has its own file beside the output too.
        let scalar = folder + "/Schema/CustomScalars/DateTime.swift"
        try "public struct DateTime {}\n".write(toFile: scalar, atomically: true, encoding: .utf8)
        try "// the team's\n".write(toFile: folder + "/Extensions.swift", atomically: true, encoding: .utf8)
        // A hidden folder (an app's .build, when OUT is the app's folder) is not codegen's.
        try FileManager.default.createDirectory(atPath: folder + "/.build", withIntermediateDirectories: true)
        let built = folder + "/.build/NodeByIdQuery.graphql.swift"
        try (CodeGenerator.generatedMarker + " a copy\n").write(toFile: built, atomically: true, encoding: .utf8)

        let fewer = files.filter { !$0.path.hasSuffix("NodeByIdQuery.graphql.swift") }
        let report = try GeneratedOutput(folder: folder).write(fewer)
        #expect(report.removed == ["Operations/Queries/NodeByIdQuery.graphql.swift"])
        #expect(report.written.isEmpty)
        #expect(try String(contentsOfFile: scalar, encoding: .utf8) == "public struct DateTime {}\n")
        #expect(FileManager.default.fileExists(atPath: folder + "/Extensions.swift"))
        #expect(FileManager.default.fileExists(atPath: built))
    }

    static func generatedFiles(in folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { path in
            guard path.hasSuffix(".swift"), let data = FileManager.default.contents(atPath: folder + "/" + path) else { return false }
            return data.starts(with: Data(CodeGenerator.generatedMarker.utf8))
        }.sorted()
    }

    static func modificationTimes(in folder: String) throws -> [String: Date] {
        var times: [String: Date] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            times[path] = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.modificationDate] as? Date
        }
        return times
    }
}
