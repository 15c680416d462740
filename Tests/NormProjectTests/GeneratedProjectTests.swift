import Foundation
import NormProject
import Testing

/// A generated project the size of a large app (2,000 types, 200 operations) loads whole;
/// the time it takes is printed, not asserted (the goal is ≤ 200 ms in release).
@Suite struct GeneratedProjectTests {
    @Test func aLargeProjectLoads() throws {
        let directory = NSTemporaryDirectory() + "normproject-generated-" + UUID().uuidString
        try GeneratedProject.write(to: directory)
        let clock = ContinuousClock()
        var project: Project?
        let elapsed = try clock.measure { project = try Project(directory: directory) }
        print("project.load: 2000 types, 200 operations in \(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms")
        #expect(project?.operations.count == 200)
        #expect(project?.fragments.count == 200)
        #expect(project?.schemaKnowledge.typePolicies["Item1999"] == .keyFields(["id"]))
        #expect(try project?.document(forOperation: "Feature7").contains("fragment Item6Fields on Item6") == true)
    }
}
