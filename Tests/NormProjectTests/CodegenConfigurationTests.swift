import NormProject
import TestSupport
import Testing

/// `apollo-codegen-config.json`'s `output` and `options`, read as Apollo iOS's codegen
/// reads them: its defaults for what is left out, and a problem naming the key path for
/// anything it would refuse.
@Suite struct CodegenConfigurationTests {
    /// The project of a configuration with `input` filled in and `extra` (JSON members) added.
    func configuration(_ extra: String) throws -> CodegenConfiguration {
        try Project(directory: Self.project(extra).path).codegen
    }

    static func project(_ extra: String) throws -> ProjectDirectory {
        try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaNamespace": "API", "input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["*.graphql"]}"#
                + (extra.isEmpty ? "" : ", " + extra) + "}",
            "schema.graphqls": ProjectDirectory.schema,
            "Trips.graphql": "query Trips { trips { id } }",
        ])
    }

    func problems(_ extra: String) throws -> [String] {
        do {
            _ = try Project(directory: Self.project(extra).path)
            return []
        } catch let error as ProjectError {
            return error.problems.map(\.description)
        }
    }

    @Test func apolloDefaultsWhenOptionsAreLeftOut() throws {
        let defaults = try configuration("")
        #expect(defaults.output == nil)
        #expect(defaults.enumCases == .camelCase)
        #expect(defaults.inputObjectFields == .camelCase)
        #expect(defaults.fieldAccessors == .idiomatic)
        #expect(defaults.initializers == .init())
        #expect(!defaults.initializers.generates(forOperation: "Trips"))
        #expect(defaults.documentFormat == [.definition])
        #expect(defaults.manifest == nil)
    }

    @Test func theOutputKeys() throws {
        let package = try configuration(#""output": {"schemaTypes": {"path": "./API", "moduleType": {"swiftPackage": {}}}, "operations": {"inSchemaModule": {}}, "testMocks": {"none": {}}}"#)
        #expect(package.output == .init(schemaTypesPath: "./API", moduleType: .swiftPackage(dependency: nil), operations: .inSchemaModule))
        // 1.x's spelling.
        let spm = try configuration(#""output": {"schemaTypes": {"path": "API", "moduleType": {"swiftPackageManager": {}}}, "operations": {"relative": {"subpath": "Generated"}}}"#)
        #expect(spm.output == .init(schemaTypesPath: "API", moduleType: .swiftPackage(dependency: nil), operations: .relative(subpath: "Generated")))
        let embedded = try configuration(#""output": {"schemaTypes": {"path": "App/API", "moduleType": {"embeddedInTarget": {"name": "App", "accessModifier": "public"}}}, "operations": {"absolute": {"path": "App/Ops"}}}"#)
        #expect(embedded.output == .init(schemaTypesPath: "App/API", moduleType: .embeddedInTarget(name: "App"), operations: .absolute(path: "App/Ops")))
        let other = try configuration(#""output": {"schemaTypes": {"path": "API", "moduleType": {"other": {}}}, "operations": {"inSchemaModule": {}}}"#)
        #expect(other.output?.moduleType == .other)
        let pinned = try configuration(#""output": {"schemaTypes": {"path": "API", "moduleType": {"swiftPackage": {"apolloSDKDependency": {"url": "https://example.com/normcache.git", "sdkVersion": {"from": {"version": "1.2.0"}}}}}}, "operations": {"inSchemaModule": {}}}"#)
        #expect(pinned.output?.moduleType == .swiftPackage(dependency: .url("https://example.com/normcache.git", requirement: .from("1.2.0"))))
    }

    @Test func theOptionsKeys() throws {
        let options = try configuration(#"""
            "options": {"conversionStrategies": {"enumCases": "none", "fieldAccessors": "camelCase", "inputObjects": "none"},
                        "selectionSetInitializers": {"namedFragments": true, "localCacheMutations": true, "definitionsNamed": ["Trips"]},
                        "operationDocumentFormat": ["definition", "operationId"],
                        "schemaCustomization": {"customTypeNames": {"Trip": "Journey", "Cabin": {"enum": {"name": "Seat", "cases": {"FIRST": "front"}}},
                                                                    "Filter": {"inputObject": {"fields": {"from_date": "since"}}}}},
                        "schemaDocumentation": "include", "queryStringLiteralFormat": "multiline"},
            "experimentalFeatures": {"legacySafelistingCompatibleOperations": true},
            "operationManifest": {"path": "manifest.json", "generateManifestOnCodeGeneration": true}
            """#)
        #expect(options.enumCases == .none && options.fieldAccessors == .camelCase && options.inputObjectFields == .none)
        #expect(options.initializers.generates(forFragment: "TripFields") && options.initializers.generates(forOperation: "Trips"))
        #expect(!options.initializers.generates(forOperation: "Other"))
        #expect(options.documentFormat == [.definition, .operationId])
        #expect(options.customTypeNames["Trip"] == .init(name: "Journey"))
        #expect(options.customTypeNames["Cabin"] == .init(name: "Seat", cases: ["FIRST": "front"]))
        #expect(options.customTypeNames["Filter"] == .init(name: nil, fields: ["from_date": "since"]))
        #expect(options.legacySafelisting)
        #expect(options.manifest == .init(path: "manifest.json", version: .persistedQueries))
        // Apollo iOS 1.x's apqs.
        #expect(try configuration(#""options": {"apqs": "automaticallyPersist"}"#).documentFormat == [.definition, .operationId])
        #expect(try configuration(#""options": {"apqs": "persistedOperationsOnly"}"#).documentFormat == [.operationId])
        // Written during codegen only when asked, as Apollo iOS 2 does; 0.x's key never asks.
        #expect(try configuration(#""operationManifest": {"path": "manifest.json", "version": "legacy"}"#).manifest == nil)
        let legacy = try configuration(#""output": {"schemaTypes": {"path": "API", "moduleType": {"other": {}}}, "operations": {"inSchemaModule": {}}, "operationIdentifiersPath": "ids.json"}"#)
        #expect(legacy.manifest == nil)
    }

    @Test func wrongValuesNameTheirKeyPath() throws {
        #expect(try problems(#""options": {"deprecatedEnumCases": "hide"}"#) == [
            #"apollo-codegen-config.json: options.deprecatedEnumCases: "hide" is not one of include, exclude"#,
        ])
        #expect(try problems(#""options": {"conversionStrategies": {"enumCases": "snake_case"}}"#) == [
            #"apollo-codegen-config.json: options.conversionStrategies.enumCases: "snake_case" is not one of camelCase, none"#,
        ])
        #expect(try problems(#""options": {"selectionSetInitializers": {"operations": "yes"}, "operationDocumentFormat": ["text"]}"#) == [
            #"apollo-codegen-config.json: options.operationDocumentFormat: "text" is not one of definition, operationId"#,
            #"apollo-codegen-config.json: options.selectionSetInitializers.operations: expected true or false, found the string "yes""#,
        ])
        #expect(try problems(#""output": {"schemaTypes": {"path": "API", "moduleType": {"swiftPackage": {}, "other": {}}}, "operations": {"elsewhere": {}}}"#) == [
            "apollo-codegen-config.json: output.operations.elsewhere: Apollo iOS's codegen has no such key (known: absolute, inSchemaModule, relative)",
            "apollo-codegen-config.json: output.schemaTypes.moduleType: expected exactly one of embeddedInTarget, other, swiftPackage, swiftPackageManager",
        ])
        #expect(try problems(#""output": {"schemaTypes": {"moduleType": {"embeddedInTarget": {}}}, "operations": {"absolute": {}}}"#) == [
            "apollo-codegen-config.json: output.operations.absolute.path: is missing: the folder the operations go in",
            "apollo-codegen-config.json: output.schemaTypes.moduleType.embeddedInTarget.name: is missing: the target the schema types are in",
            "apollo-codegen-config.json: output.schemaTypes.path: is missing: the folder of the schema types",
        ])
        #expect(try problems(#""options": {"schemaCustomization": {"customTypeNames": {"Trip": ""}}, "generateEverything": true}"#) == [
            "apollo-codegen-config.json: options.generateEverything: Apollo iOS's codegen has no such key (known: "
                + CodegenConfigurationKeys.options + ")",
            "apollo-codegen-config.json: options.schemaCustomization.customTypeNames.Trip: is empty: give the type's new name",
        ])
    }

    /// Apollo iOS 1.0's betas named `schemaNamespace` `schemaName`.
    @Test func theBetasSchemaName() throws {
        let project = try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaName": "Beta", "input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["*.graphql"]}}"#,
            "schema.graphqls": ProjectDirectory.schema, "Trips.graphql": "query Trips { trips { id } }",
        ])
        #expect(try Project(directory: project.path).schemaNamespace == "Beta")
    }
}

/// The `options` keys Apollo iOS knows, as the problem lists them.
enum CodegenConfigurationKeys {
    static let options = [
        "additionalCapitalizationRules", "additionalInflectionRules", "appendSchemaTypeFilenameSuffix", "apqs",
        "cocoapodsCompatibleImportStatements", "conversionStrategies", "deprecatedEnumCases", "markOperationDefinitionsAsFinal",
        "markTypesNonisolated", "operationDocumentFormat", "pruneGeneratedFiles", "queryStringLiteralFormat",
        "reduceGeneratedSchemaTypes", "schemaCustomization", "schemaDocumentation", "selectionSetInitializers",
        "warningsOnDeprecatedUsage",
    ].joined(separator: ", ")
}
