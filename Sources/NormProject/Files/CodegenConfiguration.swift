import NormCache

/// What `apollo-codegen-config.json` decides about the Swift `normcache codegen` writes: where
/// the files go (`output`) and how names are formed and what is generated (`options`), with
/// Apollo iOS's defaults for every key left out. docs/codegen.md lists each key, what Apollo
/// iOS does with it and what codegen does.
///
/// ```swift
/// let project = try Project(directory: "examples/TripsApp")
/// project.codegen.output?.moduleType        // .swiftPackage(dependency: nil)
/// project.codegen.output?.operations        // .inSchemaModule
/// project.codegen.enumCases                 // .camelCase
/// project.codegen.initializers.operations   // true
/// ```
package struct CodegenConfiguration: Sendable, Equatable {
    /// `output`: where Apollo iOS's codegen puts the schema types and the operations; nil
    /// when the configuration has no `output` (then `--output` is one folder, laid out as
    /// docs/codegen.md shows).
    package var output: Output?
    /// `options.conversionStrategies.enumCases`: `FIRST_CLASS` → `firstClass` (`.camelCase`,
    /// the default) or kept (`.none`).
    package var enumCases: NameConversion = .camelCase
    /// `options.conversionStrategies.inputObjects`: an input object's `favorite_color` is the
    /// property `favoriteColor` (`.camelCase`, the default) or kept (`.none`).
    package var inputObjectFields: NameConversion = .camelCase
    /// `options.conversionStrategies.fieldAccessors`: a selection's `favorite_color` is
    /// `favorite_color` (`.idiomatic`, the default: only the first letter lowercased) or
    /// `favoriteColor` (`.camelCase`).
    package var fieldAccessors: FieldAccessors = .idiomatic
    /// `options.deprecatedEnumCases`: whether enums have cases for deprecated values
    /// (`include`, the default) or not (`exclude`).
    package var includesDeprecatedEnumCases = true
    /// `options.schemaCustomization.customTypeNames`, by the schema's type name.
    package var customTypeNames: [String: CustomTypeName] = [:]
    /// `options.selectionSetInitializers`: which selection sets get a memberwise initializer.
    package var initializers = SelectionSetInitializers()
    /// `options.operationDocumentFormat`: whether operations carry their text, their
    /// identifier, or both (default: the text only).
    package var documentFormat: Set<DocumentFormat> = [.definition]
    /// `operationManifest`: the persisted query manifest codegen writes, when its
    /// `generateManifestOnCodeGeneration` asks for it (Apollo iOS 2's `generate` writes it
    /// only then; 0.x's `output.operationIdentifiersPath` never asks).
    package var manifest: OperationManifest?
    /// `experimentalFeatures.legacySafelistingCompatibleOperations`: the definitions that
    /// operation identifiers hash put `__typename` first in every selection set below the root.
    package var legacySafelisting = false

    package init() {}

    /// `output.schemaTypes` and `output.operations`.
    package struct Output: Sendable, Equatable {
        /// `output.schemaTypes.path`, relative to the configuration's folder.
        package var schemaTypesPath: String
        package var moduleType: ModuleType
        package var operations: OperationsOutput

        package init(schemaTypesPath: String, moduleType: ModuleType, operations: OperationsOutput) {
            self.schemaTypesPath = schemaTypesPath
            self.moduleType = moduleType
            self.operations = operations
        }
    }

    /// `output.schemaTypes.moduleType`.
    package enum ModuleType: Sendable, Equatable {
        /// `embeddedInTarget(name:)`: the schema types sit in an enum named after the
        /// namespace, in the app's target `name`.
        case embeddedInTarget(name: String)
        /// `swiftPackage` (1.x: `swiftPackageManager`): a package of its own, whose module is
        /// the namespace, holding the schema types at top level. `dependency`: its
        /// `apolloSDKDependency`, where the package gets NormAPI; nil for the default.
        case swiftPackage(dependency: PackageDependency?)
        /// `other`: top-level schema types in a module the team sets up.
        case other
    }

    /// Where a generated package gets NormAPI (`apolloSDKDependency`): a git URL at a
    /// version, branch or commit, or a folder.
    package enum PackageDependency: Sendable, Equatable {
        case url(String, requirement: Requirement)
        case local(path: String)

        package enum Requirement: Sendable, Equatable {
            case branch(String), commit(String), exact(String), from(String)
        }
    }

    /// `output.operations`.
    package enum OperationsOutput: Sendable, Equatable {
        /// Beside the schema types, in their module.
        case inSchemaModule
        /// Beside each `.graphql` file, in `subpath` of its folder when given.
        case relative(subpath: String?)
        /// In the folder `path`, relative to the configuration's folder.
        case absolute(path: String)
    }

    package enum NameConversion: String, Sendable, Equatable {
        case camelCase, none
    }

    package enum FieldAccessors: String, Sendable, Equatable {
        case idiomatic, camelCase
    }

    /// A type's entry in `customTypeNames`: its new name, and new names for an enum's cases
    /// or an input object's fields, by their schema names.
    package struct CustomTypeName: Sendable, Equatable {
        package var name: String?
        package var cases: [String: String] = [:]
        package var fields: [String: String] = [:]

        package init(name: String?, cases: [String: String] = [:], fields: [String: String] = [:]) {
            self.name = name
            self.cases = cases
            self.fields = fields
        }
    }

    /// `options.selectionSetInitializers`: Apollo iOS generates none unless asked.
    package struct SelectionSetInitializers: Sendable, Equatable {
        package var operations = false
        package var namedFragments = false
        /// `definitionsNamed`: operations and fragments that get them whatever the two above say.
        package var definitionsNamed: Set<String> = []

        package init() {}

        package func generates(forOperation name: String) -> Bool { operations || definitionsNamed.contains(name) }
        package func generates(forFragment name: String) -> Bool { namedFragments || definitionsNamed.contains(name) }
    }

    package enum DocumentFormat: String, Sendable, Equatable, CaseIterable {
        case definition, operationId
    }

    /// A persisted query manifest to write, at `path` relative to the configuration's folder.
    package struct OperationManifest: Sendable, Equatable {
        package var path: String
        package var version: Version

        package init(path: String, version: Version) {
            self.path = path
            self.version = version
        }

        package enum Version: String, Sendable, Equatable {
            case persistedQueries, legacy
        }
    }
}

extension CodegenConfiguration {
    static let topLevelKeys: Set<String> = [
        "schemaNamespace", "schemaName", "input", "output", "options", "experimentalFeatures", "schemaDownload",
        "schemaDownloadConfiguration", "operationManifest",
    ]
    static let optionKeys: Set<String> = [
        "additionalCapitalizationRules", "additionalInflectionRules", "queryStringLiteralFormat", "deprecatedEnumCases",
        "schemaDocumentation", "selectionSetInitializers", "operationDocumentFormat", "schemaCustomization",
        "reduceGeneratedSchemaTypes", "warningsOnDeprecatedUsage", "conversionStrategies", "pruneGeneratedFiles",
        "appendSchemaTypeFilenameSuffix", "markTypesNonisolated",
        // Apollo iOS 1.x's, dropped by 2.0: still read, and without effect here.
        "apqs", "cocoapodsCompatibleImportStatements", "markOperationDefinitionsAsFinal",
    ]

    /// Reads the configuration's `output`, `options` and `operationManifest`, each value
    /// checked as Apollo iOS's codegen checks it; every problem goes to `reader`.
    init(_ configuration: CacheValue, reader: inout ConfigurationReader) {
        _ = reader.object(configuration, at: "", keys: Self.topLevelKeys)
        output = Self.output(configuration["output"], reader: &reader)
        _ = reader.string(configuration["output"]?["operationIdentifiersPath"], at: "output.operationIdentifiersPath")
        readManifest(configuration["operationManifest"], reader: &reader)
        if case .object(let features)? = configuration["experimentalFeatures"] {
            legacySafelisting = reader.bool(features["legacySafelistingCompatibleOperations"],
                                            at: "experimentalFeatures.legacySafelistingCompatibleOperations") ?? false
        }
        guard let options = reader.object(configuration["options"], at: "options", keys: Self.optionKeys) else { return }
        readConversions(options["conversionStrategies"], reader: &reader)
        includesDeprecatedEnumCases = reader.choice(options["deprecatedEnumCases"], at: "options.deprecatedEnumCases", among: ["include", "exclude"]) != "exclude"
        _ = reader.choice(options["schemaDocumentation"], at: "options.schemaDocumentation", among: ["include", "exclude"])
        _ = reader.choice(options["warningsOnDeprecatedUsage"], at: "options.warningsOnDeprecatedUsage", among: ["include", "exclude"])
        readCustomTypeNames(options["schemaCustomization"], reader: &reader)
        readInitializers(options["selectionSetInitializers"], reader: &reader)
        // Apollo iOS 1.x's `apqs`, before `operationDocumentFormat`: automatic persisted
        // queries carry the identifier too, persisted operations only it.
        switch reader.choice(options["apqs"], at: "options.apqs", among: ["disabled", "automaticallyPersist", "persistedOperationsOnly"]) {
        case "automaticallyPersist": documentFormat = [.definition, .operationId]
        case "persistedOperationsOnly": documentFormat = [.operationId]
        default: break
        }
        if let formats = reader.strings(options["operationDocumentFormat"], at: "options.operationDocumentFormat") {
            var chosen: Set<DocumentFormat> = []
            for format in formats {
                if let known = DocumentFormat(rawValue: format) { chosen.insert(known) } else {
                    reader.problem(at: "options.operationDocumentFormat", "\"\(format)\" is not one of definition, operationId")
                }
            }
            if formats.isEmpty { reader.problem(at: "options.operationDocumentFormat", "cannot be empty: give definition, operationId or both") }
            if !chosen.isEmpty { documentFormat = chosen }
        }
    }

    private static func output(_ value: CacheValue?, reader: inout ConfigurationReader) -> Output? {
        guard let output = reader.object(value, at: "output", keys: ["schemaTypes", "operations", "testMocks", "operationIdentifiersPath"]) else { return nil }
        guard let schemaTypes = reader.object(output["schemaTypes"], at: "output.schemaTypes", keys: ["path", "moduleType"]) else {
            reader.problem(at: "output.schemaTypes", "is missing: it says where the schema types go")
            return nil
        }
        let path = reader.string(schemaTypes["path"], at: "output.schemaTypes.path")
        if path == nil { reader.problem(at: "output.schemaTypes.path", "is missing: the folder of the schema types") }
        let moduleType = Self.moduleType(schemaTypes["moduleType"], reader: &reader)
        let operations = Self.operations(output["operations"], reader: &reader)
        guard let path, let moduleType, let operations else { return nil }
        return Output(schemaTypesPath: path, moduleType: moduleType, operations: operations)
    }

    private static func moduleType(_ value: CacheValue?, reader: inout ConfigurationReader) -> ModuleType? {
        let at = "output.schemaTypes.moduleType"
        guard let (tag, values) = reader.tagged(value, at: at, among: [
            "embeddedInTarget": ["name", "accessModifier"], "swiftPackage": ["apolloSDKDependency"],
            "swiftPackageManager": ["apolloSDKDependency"], "other": [],
        ]) else {
            if value == nil { reader.problem(at: at, "is missing: one of embeddedInTarget, swiftPackage, other") }
            return nil
        }
        switch tag {
        case "embeddedInTarget":
            _ = reader.choice(values["accessModifier"], at: at + ".embeddedInTarget.accessModifier", among: ["public", "internal"])
            guard let name = reader.string(values["name"], at: at + ".embeddedInTarget.name") else {
                reader.problem(at: at + ".embeddedInTarget.name", "is missing: the target the schema types are in")
                return nil
            }
            return .embeddedInTarget(name: name)
        case "other": return .other
        default: return .swiftPackage(dependency: dependency(values["apolloSDKDependency"], at: at + "." + tag + ".apolloSDKDependency", reader: &reader))
        }
    }

    /// Apollo's `apolloSDKDependency`: `url` (default Apollo's own, which here means the
    /// default) and `sdkVersion` (`"default"`, or one of branch, commit, exact, from, local).
    private static func dependency(_ value: CacheValue?, at path: String, reader: inout ConfigurationReader) -> PackageDependency? {
        guard let dependency = reader.object(value, at: path, keys: ["url", "sdkVersion"]) else { return nil }
        let url = reader.string(dependency["url"], at: path + ".url")
        if case .string("default")? = dependency["sdkVersion"] { return nil }
        guard let (tag, values) = reader.tagged(dependency["sdkVersion"], at: path + ".sdkVersion", among: [
            "branch": ["name"], "commit": ["hash"], "exact": ["version"], "from": ["version"], "local": ["path"],
        ]) else { return nil }
        let key = ["branch": "name", "commit": "hash", "local": "path"][tag] ?? "version"
        guard let text = reader.string(values[key], at: "\(path).sdkVersion.\(tag).\(key)") else {
            reader.problem(at: "\(path).sdkVersion.\(tag).\(key)", "is missing")
            return nil
        }
        if tag == "local" { return .local(path: text) }
        guard let url, !url.contains("apollographql/apollo-ios") else {
            reader.problem(at: path + ".url", "is needed with sdkVersion.\(tag): the git URL of the package that has NormAPI")
            return nil
        }
        let requirement: PackageDependency.Requirement = switch tag {
        case "branch": .branch(text)
        case "commit": .commit(text)
        case "exact": .exact(text)
        default: .from(text)
        }
        return .url(url, requirement: requirement)
    }

    private static func operations(_ value: CacheValue?, reader: inout ConfigurationReader) -> OperationsOutput? {
        let at = "output.operations"
        guard let (tag, values) = reader.tagged(value, at: at, among: [
            "inSchemaModule": [], "relative": ["subpath", "accessModifier"], "absolute": ["path", "accessModifier"],
        ]) else {
            if value == nil { reader.problem(at: at, "is missing: one of inSchemaModule, relative, absolute") }
            return nil
        }
        _ = reader.choice(values["accessModifier"], at: "\(at).\(tag).accessModifier", among: ["public", "internal"])
        switch tag {
        case "relative": return .relative(subpath: reader.string(values["subpath"], at: at + ".relative.subpath"))
        case "absolute":
            guard let path = reader.string(values["path"], at: at + ".absolute.path") else {
                reader.problem(at: at + ".absolute.path", "is missing: the folder the operations go in")
                return nil
            }
            return .absolute(path: path)
        default: return .inSchemaModule
        }
    }

    private mutating func readManifest(_ value: CacheValue?, reader: inout ConfigurationReader) {
        let at = "operationManifest"
        guard let object = reader.object(value, at: at, keys: ["path", "version", "generateManifestOnCodeGeneration"]) else { return }
        let version = reader.choice(object["version"], at: at + ".version", among: ["persistedQueries", "legacy"])
            .flatMap(OperationManifest.Version.init) ?? .persistedQueries
        guard let path = reader.string(object["path"], at: at + ".path") else {
            return reader.problem(at: at + ".path", "is missing: where the manifest is written")
        }
        // Apollo iOS writes the manifest during codegen only when asked; else its
        // `generate-operation-manifest` command does.
        manifest = reader.bool(object["generateManifestOnCodeGeneration"], at: at + ".generateManifestOnCodeGeneration") == true
            ? OperationManifest(path: path, version: version) : nil
    }

    private mutating func readConversions(_ value: CacheValue?, reader: inout ConfigurationReader) {
        let at = "options.conversionStrategies"
        guard let object = reader.object(value, at: at, keys: ["enumCases", "fieldAccessors", "inputObjects"]) else { return }
        if let choice = reader.choice(object["enumCases"], at: at + ".enumCases", among: ["camelCase", "none"]) {
            enumCases = NameConversion(rawValue: choice)!
        }
        if let choice = reader.choice(object["inputObjects"], at: at + ".inputObjects", among: ["camelCase", "none"]) {
            inputObjectFields = NameConversion(rawValue: choice)!
        }
        if let choice = reader.choice(object["fieldAccessors"], at: at + ".fieldAccessors", among: ["idiomatic", "camelCase"]) {
            fieldAccessors = FieldAccessors(rawValue: choice)!
        }
    }

    /// `customTypeNames`: `"Type": "NewName"`, or `{"enum": {"name", "cases"}}`,
    /// `{"inputObject": {"name", "fields"}}`, `{"type": {"name"}}`.
    private mutating func readCustomTypeNames(_ value: CacheValue?, reader: inout ConfigurationReader) {
        let at = "options.schemaCustomization"
        guard let object = reader.object(value, at: at, keys: ["customTypeNames"]),
              let names = reader.object(object["customTypeNames"], at: at + ".customTypeNames", keys: nil)
        else { return }
        for (type, entry) in zip(names.keys, names.values) {
            let path = "\(at).customTypeNames.\(type)"
            if case .string(let name) = entry {
                if name.isEmpty { reader.problem(at: path, "is empty: give the type's new name") } else { customTypeNames[type] = CustomTypeName(name: name) }
                continue
            }
            guard let (tag, values) = reader.tagged(entry, at: path, among: ["type": ["name"], "enum": ["name", "cases"], "inputObject": ["name", "fields"]]) else {
                continue
            }
            var custom = CustomTypeName(name: reader.string(values["name"], at: "\(path).\(tag).name").flatMap { $0.isEmpty ? nil : $0 })
            let renamed = tag == "enum" ? "cases" : "fields"
            if let members = reader.object(values[renamed], at: "\(path).\(tag).\(renamed)", keys: nil) {
                for (member, newName) in zip(members.keys, members.values) {
                    guard let newName = reader.string(newName, at: "\(path).\(tag).\(renamed).\(member)") else { continue }
                    if tag == "enum" { custom.cases[member] = newName } else { custom.fields[member] = newName }
                }
            }
            if custom == CustomTypeName(name: nil) { reader.problem(at: path, "renames nothing: give a name, or new names for its \(renamed)") }
            customTypeNames[type] = custom
        }
    }

    private mutating func readInitializers(_ value: CacheValue?, reader: inout ConfigurationReader) {
        let at = "options.selectionSetInitializers"
        guard let object = reader.object(value, at: at, keys: ["operations", "namedFragments", "localCacheMutations", "definitionsNamed"]) else { return }
        initializers.operations = reader.bool(object["operations"], at: at + ".operations") ?? false
        initializers.namedFragments = reader.bool(object["namedFragments"], at: at + ".namedFragments") ?? false
        _ = reader.bool(object["localCacheMutations"], at: at + ".localCacheMutations")
        initializers.definitionsNamed = Set(reader.strings(object["definitionsNamed"], at: at + ".definitionsNamed") ?? [])
    }
}
