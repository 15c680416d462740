import Foundation
import NormProject

/// `normcache codegen --project DIR --output OUT`: loads and validates the project, generates
/// every file in memory, then writes what changed (``GeneratedOutput``). Every problem goes
/// to standard error with its file, line and column, and nothing is written; exit 2. With
/// the configuration's `output`, OUT stands for the configuration's folder, and defaults to
/// it: the files go where Apollo iOS's codegen writes them.
///
/// ```swift
/// Codegen.run(project: "examples/TripsApp", output: nil)   // its configuration says ./TripsAPI, a package
/// // codegen: 19 files in examples/TripsApp: 19 written, 0 unchanged, 0 removed
/// ```
package enum Codegen {
    @discardableResult
    package static func run(project directory: String, output: String?, namespace: String? = nil, embedsSchema: Bool = false) -> Int32 {
        do throws(ProjectError) {
            let project = try Project(directory: directory)
            guard let output = output ?? (project.codegen.output != nil ? directory : nil) else {
                throw ProjectError([.init(file: nil, message: "--output OUT is needed: apollo-codegen-config.json has no output key to say where the files go")])
            }
            let generator = CodeGenerator(project: project, namespace: namespace, embedsSchema: embedsSchema, outputFolder: output)
            let files = try generator.files()
            let report: GeneratedOutput.Report
            do { report = try GeneratedOutput(folder: output).write(files, cleaning: generator.cleanedFolders()) } catch { throw ProjectError([.init(file: nil, message: "\(error)")]) }
            print("codegen: \(files.count) files in \(output): \(report.written.count) written, \(report.unchanged) unchanged, "
                  + "\(report.removed.count) removed")
            return 0
        } catch {
            fail(error.problems.map(\.description))
            return 2
        }
    }

    private static func fail(_ lines: [String]) {
        FileHandle.standardError.write(Data(lines.map { "codegen: \($0)\n" }.joined().utf8))
    }
}
