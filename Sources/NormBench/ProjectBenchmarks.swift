import Foundation
import GraphQL
import NormProject

/// Benchmarks of loading an app's GraphQL project.
enum ProjectBenchmarks {
    static let load = Benchmark(
        name: "project.load", unit: "ms",
        summary: "loading a project of 200 operations over a 2,000-type schema (files found, SDL and operations parsed, "
            + "the schema built, every operation validated, policies read); baseline: GraphQLSwift parsing the same "
            + "files, nothing else; ratio = baseline time / ours"
    ) { trial in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("normcache-bench-\(getpid())-project").path
        trial.must { try GeneratedProject.write(to: directory) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = trial.must { try FileManager.default.subpathsOfDirectory(atPath: directory) }
            .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".graphqls") }
            .map { (directory as NSString).appendingPathComponent($0) }
        let seconds = trial.medians({
            try Project(directory: directory).operations.count
        }, baseline: {
            try files.reduce(0) { count, file in count + (try parse(source: try String(contentsOfFile: file, encoding: .utf8)).definitions.count) }
        })
        return .time(seconds, scale: 1e3, ratio: .baselineOverOurs)
    }
}
