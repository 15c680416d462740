import Foundation
import NormProject

/// Where each generated file goes, relative to the output folder, and what wraps and imports
/// it. With the configuration's `output`, the output folder stands for the configuration's
/// folder and files go where Apollo iOS's codegen puts them:
///
/// | `moduleType` | schema types | operations `inSchemaModule` |
/// | --- | --- | --- |
/// | `embeddedInTarget` | `PATH/Schema/Enums/...`, in `extension Namespace`; `PATH/Namespace.graphql.swift` | `PATH/Operations/Queries/...`, `PATH/Fragments/...`, in `extension Namespace` |
/// | `swiftPackage` | `PATH/Sources/Schema/Enums/...`, top level; `PATH/Package.swift` | `PATH/Sources/Operations/Queries/...`, `PATH/Sources/Fragments/...` |
/// | `other` | `PATH/Schema/Enums/...`, top level | as for `embeddedInTarget`, top level |
///
/// (`Schema/` only when the operations are in the schema module; a local cache mutation goes
/// in `LocalCacheMutations/` where the others go in `Operations/Queries/`.) Operations `relative`
/// go beside their `.graphql` file (in `subpath` of its folder), `absolute` in
/// `path/Queries/...`, each importing the schema's module. Without `output`, the output
/// folder holds `Operations/`, `Fragments/` and `Schema/`, the schema types in the namespace enum.
///
/// ```swift
/// let layout = OutputLayout(output: project.codegen.output, namespace: "TripsAPI")
/// layout.path(of: tripDetail)                      // "TripsAPI/Sources/Operations/Queries/TripDetailQuery.graphql.swift"
/// layout.schemaTypePath(folder: "Enums", file: "Cabin.graphql.swift")   // "TripsAPI/Sources/Schema/Enums/Cabin.graphql.swift"
/// ```
struct OutputLayout {
    let output: CodegenConfiguration.Output?
    /// The namespace, as written (first letter uppercased).
    let namespace: String

    /// The enum the schema types are in: the namespace for an embedded target or without
    /// `output`; nil when they are top-level types of a module.
    var schemaTypesEnum: String? {
        switch output?.moduleType {
        case nil, .embeddedInTarget?: namespace
        case .swiftPackage?, .other?: nil
        }
    }

    /// The enum operations and fragments are in: the namespace when they are in the schema
    /// module of an embedded target (Apollo iOS wraps them in it); nil: top level.
    var operationsEnum: String? {
        guard let output, output.operations == .inSchemaModule, case .embeddedInTarget = output.moduleType else { return nil }
        return namespace
    }

    /// The module operation files import besides NormAPI: the schema's, when they are not in it.
    var schemaModuleImport: String? {
        guard let output, output.operations != .inSchemaModule else { return nil }
        if case .embeddedInTarget(let target) = output.moduleType { return target }
        return namespace
    }

    /// The folder of the schema types' module (the package's, for `swiftPackage`).
    private var schemaTypesRoot: String { output.map { Self.normalized($0.schemaTypesPath) } ?? "" }

    /// Where a module's sources are: `Sources` of a package, else the schema types' folder.
    private var sourcesRoot: String {
        if case .swiftPackage? = output?.moduleType { return Self.join(schemaTypesRoot, "Sources") }
        return schemaTypesRoot
    }

    /// The file of a schema type in `folder` (`Enums`, `InputObjects`, `CustomScalars`,
    /// `Objects`, ...; "" for the schema's own, `SchemaMetadata`).
    func schemaTypePath(folder: String, file: String) -> String {
        guard let output else { return Self.join("Schema", folder, file) }
        return Self.join(sourcesRoot, output.operations == .inSchemaModule ? "Schema" : "", folder, file)
    }

    /// The file declaring the namespace enum, when there is one.
    var namespaceFilePath: String? {
        guard output != nil else { return "Schema/SchemaNamespace.graphql.swift" }
        return schemaTypesEnum.map { Self.join(schemaTypesRoot, "\($0).graphql.swift") }
    }

    /// The package's `Package.swift`, for `swiftPackage`.
    var packageManifestPath: String? {
        guard case .swiftPackage? = output?.moduleType else { return nil }
        return Self.join(schemaTypesRoot, "Package.swift")
    }

    /// The file of an operation's or a fragment's type; a place outside the output folder
    /// (an operation file outside the project's folder, with `relative`) is a problem.
    func path(of definition: ProjectDefinition) throws(ProjectError) -> String {
        let file = definition.typeName + ".graphql.swift"
        // Apollo iOS's folder of each kind: a local cache mutation's is beside `Operations`.
        let folder = definition.isLocalCacheMutation ? "LocalCacheMutations" : definition.kind.folder
        let kindFolder = definition.kind == .fragment || definition.isLocalCacheMutation ? folder : "Operations/" + folder
        let path: String
        switch output?.operations {
        case nil: path = Self.join(kindFolder, file)
        case .inSchemaModule?: path = Self.join(sourcesRoot, kindFolder, file)
        case .absolute(let absolute)?: path = Self.join(Self.normalized(absolute), folder, file)
        case .relative(let subpath)?: path = Self.join(Self.normalized((definition.file as NSString).deletingLastPathComponent + "/" + (subpath ?? "")), file)
        }
        guard !path.hasPrefix("/"), !path.hasPrefix("../") else {
            throw ProjectError([.init(file: definition.file, line: definition.line, column: definition.column,
                                      message: "\(definition.kind.rawValue) \(definition.name): its Swift would go to \(path), outside the output folder "
                                               + "(output.operations in apollo-codegen-config.json places it)")])
        }
        return path
    }

    /// Where files codegen wrote before and no longer writes are looked for, given where
    /// this run puts the operations and fragments (`definitionPaths`): the whole output
    /// folder without `output`; else only the folders the configuration writes into (the
    /// schema types', the operations' or each operation file's), so an app's files and
    /// another project's generated ones elsewhere in the folder are left alone.
    func cleanedFolders(definitionPaths: [String]) -> [String] {
        guard let output else { return [""] }
        var folders = [schemaTypesRoot]
        switch output.operations {
        case .inSchemaModule: break
        case .absolute(let path): folders.append(Self.normalized(path))
        case .relative: folders += definitionPaths.map { ($0 as NSString).deletingLastPathComponent }
        }
        return Array(Set(folders)).sorted()
    }

    /// `a/./b/../c/` → `a/c`; a leading `..` stays.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    private static func join(_ parts: String...) -> String {
        normalized(parts.filter { !$0.isEmpty }.joined(separator: "/"))
    }
}
