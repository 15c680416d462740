import Foundation
import NormCodegen
import NormProject
import TestSupport
import Testing

/// What `apollo-codegen-config.json` decides in the generated Swift: where files go
/// (`output`), how names are formed (`conversionStrategies`, `customTypeNames`, Apollo's
/// casing), which selection sets get initializers, and the operation identifier.
@Suite struct CodegenConfigurationTests {
    static let schema = """
        type Query { hero(episode: Episode): Character dogs(filter: DogFilter): [Dog!]! animal: Animal }
        type Character { name: String! }
        type Dog { id: ID! favorite_color: String born: Date skin: SkinCovering }
        type Crocodile { id: ID! }
        type Error { message: String }
        union Animal = Dog | Crocodile | Error
        enum Episode { NEWHOPE EMPIRE JEDI PHANTOM @deprecated(reason: "Not canon") }
        enum SkinCovering { FUR HAIR SCALES }
        scalar Date
        input DogFilter { favorite_color: String size: Int }
        """
    static let operations = """
        query HeroName($episode: Episode) {
          hero(episode: $episode) {
            name
          }
        }

        query Dogs($filter: DogFilter) {
          dogs(filter: $filter) { ...dogFragment }
          animal { ... on Crocodile { id } ... on Error { message } }
        }

        fragment dogFragment on Dog { id favorite_color born skin }
        """

    /// Every file codegen writes for the project of `configuration` (the JSON members after
    /// `schemaNamespace` and `input`), by path.
    func files(_ configuration: String, graphQLFolder: String = "graphql") throws -> [String: String] {
        let project = try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaNamespace": "animalAPI", "input": {"schemaSearchPaths": ["schema.graphqls"], "operationSearchPaths": ["**/*.graphql"]}"#
                + (configuration.isEmpty ? "" : ", " + configuration) + "}",
            "schema.graphqls": Self.schema,
            graphQLFolder + "/Animals.graphql": Self.operations,
        ])
        let generated = try CodeGenerator(project: Project(directory: project.path), outputFolder: project.path).files()
        return Dictionary(uniqueKeysWithValues: generated.map { ($0.path, $0.contents) })
    }

    static let package = #""output": {"schemaTypes": {"path": "./AnimalAPI", "moduleType": {"swiftPackage": {}}}, "operations": {"inSchemaModule": {}}}"#

    @Test func aSwiftPackageHoldsTopLevelSchemaTypesAndAManifest() throws {
        let files = try files(Self.package)
        #expect(files.keys.sorted() == [
            "AnimalAPI/Package.swift",
            "AnimalAPI/Sources/Fragments/DogFragment.graphql.swift",
            "AnimalAPI/Sources/Operations/Queries/DogsQuery.graphql.swift",
            "AnimalAPI/Sources/Operations/Queries/HeroNameQuery.graphql.swift",
            "AnimalAPI/Sources/Schema/CustomScalars/Date.swift",
            "AnimalAPI/Sources/Schema/Enums/Episode.graphql.swift",
            "AnimalAPI/Sources/Schema/Enums/SkinCovering.graphql.swift",
            "AnimalAPI/Sources/Schema/InputObjects/DogFilter.graphql.swift",
            "AnimalAPI/Sources/Schema/Objects/Character.graphql.swift",
            "AnimalAPI/Sources/Schema/Objects/Crocodile.graphql.swift",
            "AnimalAPI/Sources/Schema/Objects/Dog.graphql.swift",
            "AnimalAPI/Sources/Schema/Objects/Error_Object.graphql.swift",
            "AnimalAPI/Sources/Schema/Objects/Query.graphql.swift",
            "AnimalAPI/Sources/Schema/SchemaMetadata.graphql.swift",
            "AnimalAPI/Sources/Schema/Unions/Animal.graphql.swift",
        ])
        let enumFile = try #require(files["AnimalAPI/Sources/Schema/Enums/Episode.graphql.swift"])
        #expect(enumFile.contains("\npublic enum Episode: String, NormAPI.EnumType {"))
        #expect(!enumFile.contains("extension"))
        // Code outside names the schema's types by the module: the namespace, first letter uppercased.
        #expect(files["AnimalAPI/Sources/Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("public var episode: GraphQLEnum<AnimalAPI.Episode>?"))
        let manifest = try #require(files["AnimalAPI/Package.swift"])
        #expect(manifest.hasPrefix("// swift-tools-version:6.0\n"))
        #expect(manifest.contains(#".library(name: "AnimalAPI", targets: ["AnimalAPI"])"#))
        #expect(manifest.contains(#"dependencies: [.product(name: "NormAPI", package: "normcache")]"#))
        #expect(manifest.contains(#"path: "./Sources""#))
    }

    @Test func aPackagesNormAPIComesFromItsApolloSDKDependency() throws {
        let files = try files(#""output": {"schemaTypes": {"path": "API", "moduleType": {"swiftPackage": {"apolloSDKDependency": {"url": "https://example.com/team/normcache.git", "sdkVersion": {"branch": {"name": "main"}}}}}}, "operations": {"inSchemaModule": {}}}"#)
        let manifest = try #require(files["API/Package.swift"])
        #expect(manifest.contains(#".package(url: "https://example.com/team/normcache.git", branch: "main")"#))
        #expect(manifest.contains(#".product(name: "NormAPI", package: "normcache")"#))
    }

    @Test func byDefaultAPackageFindsNormAPIInThisCheckout() throws {
        let folder = ProjectDirectory.repository + "/examples/TripsApp/TripsAPI"
        let manifest = try String(contentsOfFile: folder + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#".package(name: "normcache", path: "../../..")"#))
        #expect(FileManager.default.fileExists(atPath: folder + "/../../../Sources/NormAPI"))
    }

    @Test func anEmbeddedTargetWrapsSchemaTypesAndOperationsInTheNamespace() throws {
        let files = try files(#""output": {"schemaTypes": {"path": "App/API", "moduleType": {"embeddedInTarget": {"name": "App"}}}, "operations": {"inSchemaModule": {}}}"#)
        #expect(files.keys.sorted() == [
            "App/API/AnimalAPI.graphql.swift",
            "App/API/Fragments/DogFragment.graphql.swift",
            "App/API/Operations/Queries/DogsQuery.graphql.swift",
            "App/API/Operations/Queries/HeroNameQuery.graphql.swift",
            "App/API/Schema/CustomScalars/Date.swift",
            "App/API/Schema/Enums/Episode.graphql.swift",
            "App/API/Schema/Enums/SkinCovering.graphql.swift",
            "App/API/Schema/InputObjects/DogFilter.graphql.swift",
            "App/API/Schema/Objects/Character.graphql.swift",
            "App/API/Schema/Objects/Crocodile.graphql.swift",
            "App/API/Schema/Objects/Dog.graphql.swift",
            "App/API/Schema/Objects/Error_Object.graphql.swift",
            "App/API/Schema/Objects/Query.graphql.swift",
            "App/API/Schema/SchemaMetadata.graphql.swift",
            "App/API/Schema/Unions/Animal.graphql.swift",
        ])
        #expect(files["App/API/AnimalAPI.graphql.swift"]!.contains("public enum AnimalAPI {}"))
        #expect(files["App/API/Schema/Enums/Episode.graphql.swift"]!.contains("extension AnimalAPI {\n"))
        // The cache metadata: its containers in the namespace, each type an extension of its container.
        #expect(files["App/API/Schema/SchemaMetadata.graphql.swift"]!.contains("extension AnimalAPI {\n"))
        #expect(files["App/API/Schema/Objects/Dog.graphql.swift"]!.contains("public extension AnimalAPI.Objects {\n    static let Dog = NormAPI.Object("))
        #expect(files["App/API/Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("extension AnimalAPI {\n    /// The query"))
    }

    @Test func relativeOperationsGoBesideTheirFilesAndImportTheSchemasModule() throws {
        let files = try files(#""output": {"schemaTypes": {"path": "API", "moduleType": {"embeddedInTarget": {"name": "App"}}}, "operations": {"relative": {"subpath": "Generated"}}}"#)
        let hero = try #require(files["graphql/Generated/HeroNameQuery.graphql.swift"])
        #expect(hero.contains("import NormAPI\nimport App\n"))
        #expect(!hero.contains("extension AnimalAPI"))
        #expect(files["graphql/Generated/DogFragment.graphql.swift"] != nil)
        // The schema types are not in the operations' module: no Schema/ folder.
        #expect(files["API/Enums/Episode.graphql.swift"] != nil)
        #expect(files["API/AnimalAPI.graphql.swift"] != nil)
    }

    @Test func absoluteOperationsGoInTheirFolderByKind() throws {
        let files = try files(#""output": {"schemaTypes": {"path": "API", "moduleType": {"other": {}}}, "operations": {"absolute": {"path": "./Ops"}}}"#)
        #expect(files["Ops/Queries/HeroNameQuery.graphql.swift"]!.contains("import NormAPI\nimport AnimalAPI\n"))
        #expect(files["Ops/Fragments/DogFragment.graphql.swift"] != nil)
        // `other`: top-level types, no package, no namespace enum.
        #expect(files["API/Enums/Episode.graphql.swift"]!.contains("\npublic enum Episode"))
        #expect(!files.keys.contains { $0.hasSuffix("Package.swift") || $0.hasSuffix("AnimalAPI.graphql.swift") })
    }

    @Test func theSchemasSDLNeedsTheNamespaceEnum() throws {
        let project = try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaNamespace": "API", "input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["*.graphql"]}, "#
                + Self.package + "}",
            "schema.graphqls": ProjectDirectory.schema, "Trips.graphql": "query Trips { trips { id } }",
        ])
        #expect(throws: ProjectError([.init(file: nil, message: "--embed-schema puts the SDL in the namespace enum, and output.schemaTypes.moduleType "
                                                + "in apollo-codegen-config.json makes none: use embeddedInTarget, or leave output out")])) {
            try CodeGenerator(project: Project(directory: project.path), embedsSchema: true).files()
        }
    }

    @Test func anOperationFileThatWouldLeaveTheOutputFolder() throws {
        let outside = " outside the output folder (output.operations in apollo-codegen-config.json places it)"
        #expect(throws: ProjectError([
            .init(file: "graphql/Animals.graphql", line: 1, column: 1, message: "query HeroName: its Swift would go to ../elsewhere/Queries/HeroNameQuery.graphql.swift," + outside),
            .init(file: "graphql/Animals.graphql", line: 7, column: 1, message: "query Dogs: its Swift would go to ../elsewhere/Queries/DogsQuery.graphql.swift," + outside),
            .init(file: "graphql/Animals.graphql", line: 12, column: 1, message: "fragment dogFragment: its Swift would go to ../elsewhere/Fragments/DogFragment.graphql.swift," + outside),
        ])) {
            try files(#""output": {"schemaTypes": {"path": "API", "moduleType": {"other": {}}}, "operations": {"absolute": {"path": "../elsewhere"}}}"#)
        }
    }

    @Test func apollosNamesByDefault() throws {
        let files = try files("")
        let fragment = try #require(files["Fragments/DogFragment.graphql.swift"])
        #expect(fragment.contains("public struct DogFragment: NormAPI.Fragment {"))
        #expect(fragment.contains("public let favorite_color: String?"))
        #expect(files["Operations/Queries/DogsQuery.graphql.swift"]!.contains("public let dogFragment: DogFragment"))
        #expect(files["Operations/Queries/DogsQuery.graphql.swift"]!.contains("public let asCrocodile: AsCrocodile?"))
        // A schema type named as one of Swift's gets its kind after it, as Apollo names it.
        #expect(files["Operations/Queries/DogsQuery.graphql.swift"]!.contains("public let asError_Object: AsError_Object?"))
        let filter = try #require(files["Schema/InputObjects/DogFilter.graphql.swift"])
        #expect(filter.contains("public var favoriteColor: String?"))
        #expect(filter.contains(#""favorite_color": favoriteColor?.jsonValue"#))
        #expect(files["Schema/Enums/Episode.graphql.swift"]!.contains(#"case newhope = "NEWHOPE""#))
        #expect(files["Schema/SchemaNamespace.graphql.swift"]!.contains("public enum AnimalAPI {}"))
    }

    @Test func conversionStrategies() throws {
        let files = try files(#""options": {"conversionStrategies": {"enumCases": "none", "fieldAccessors": "camelCase", "inputObjects": "none"}}"#)
        #expect(files["Schema/Enums/Episode.graphql.swift"]!.contains(#"case NEWHOPE = "NEWHOPE""#))
        #expect(files["Fragments/DogFragment.graphql.swift"]!.contains("public let favoriteColor: String?"))
        #expect(files["Fragments/DogFragment.graphql.swift"]!.contains(#"try data.field("favorite_color""#))
        #expect(files["Schema/InputObjects/DogFilter.graphql.swift"]!.contains("public var favorite_color: String?"))
    }

    /// Apollo iOS names a local cache mutation `…LocalCacheMutation`, puts it in
    /// `LocalCacheMutations/`, beside `Operations/`, and always gives it initializers.
    @Test func localCacheMutations() throws {
        let project = try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaNamespace": "API", "input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["*.graphql"]}, "#
                + #""output": {"schemaTypes": {"path": "API", "moduleType": {"swiftPackage": {}}}, "operations": {"inSchemaModule": {}}}}"#,
            "schema.graphqls": ProjectDirectory.schema,
            "Trips.graphql": "query Trips @apollo_client_ios_localCacheMutation { trips { id } }\nquery Named { trips { name } }",
        ])
        let files = try CodeGenerator(project: Project(directory: project.path), outputFolder: project.path).files()
        let mutation = try #require(files.first { $0.path == "API/Sources/LocalCacheMutations/TripsLocalCacheMutation.graphql.swift" })
        #expect(mutation.contents.contains("public struct TripsLocalCacheMutation:"))
        #expect(mutation.contents.contains("public init(trips: [Trip])"))
        #expect(files.contains { $0.path == "API/Sources/Operations/Queries/NamedQuery.graphql.swift" && !$0.contents.contains("public init(trips:") })
    }

    /// A local cache mutation's types are mutable, as Apollo iOS's: the operation a
    /// `LocalCacheMutation`, its `Data` and nested types `MutableSelectionSet`s with every
    /// field a `var` (a fragment's too, stored), type cases and `fragments` read-only; a
    /// fragment marked so is mutable too, an ordinary query's types are not.
    @Test func localCacheMutationsAreMutable() throws {
        let project = try ProjectDirectory([
            "schema.graphqls": Self.schema,
            "Dogs.graphql": """
                query LocalDogs @apollo_client_ios_localCacheMutation { dogs { ...dogFragment } animal { ... on Dog { id skin } } }
                fragment dogFragment on Dog { id favorite_color }
                fragment LocalDog on Dog @apollo_client_ios_localCacheMutation { born }
                query Dogs { dogs { ...LocalDog } }
                """,
        ])
        let files = try CodeGenerator(project: Project(directory: project.path), outputFolder: project.path).files()
        func file(_ name: String) throws -> String { try #require(files.first { $0.path.hasSuffix("/" + name + ".graphql.swift") }).contents }
        let local = try file("LocalDogsLocalCacheMutation")
        for line in ["public struct LocalDogsLocalCacheMutation: NormAPI.LocalCacheMutation", "public struct Data: NormAPI.MutableSelectionSet",
                     "public var dogs: [Dog]", "public struct Dog: NormAPI.MutableSelectionSet", "public var __typename: String",
                     "public var favorite_color: String?", "public let fragments: Fragments", "public let asDog: AsDog?",
                     "public var skin: GraphQLEnum<API.SkinCovering>?",
                     #"newMembersOf: [fragments.dogFragment.jsonValue]"#] {
            #expect(local.contains(line), "\(line)")
        }
        #expect(!local.contains("fragments.dogFragment.favorite_color"), "a fragment's field is stored, not read through the fragment")
        #expect(try file("LocalDog").contains("public struct LocalDog: NormAPI.MutableSelectionSet, NormAPI.Fragment"))
        #expect(try file("LocalDog").contains("public var born: API.Date?"))
        let dogs = try file("DogsQuery")
        #expect(dogs.contains("public struct Data: NormAPI.SelectionSet") && dogs.contains("public let dogs: [Dog]"))
        #expect(dogs.contains("public var born: API.Date? { fragments.localDog.born }"))
    }

    @Test func deprecatedEnumCasesLeftOutWhenExcluded() throws {
        #expect(try files("")["Schema/Enums/Episode.graphql.swift"]!.contains(#"case phantom = "PHANTOM""#))
        let excluded = try files(#""options": {"deprecatedEnumCases": "exclude"}"#)["Schema/Enums/Episode.graphql.swift"]!
        #expect(!excluded.contains("PHANTOM") && excluded.contains(#"case jedi = "JEDI""#))
    }

    @Test func customTypeNames() throws {
        let files = try files(#"""
            "options": {"schemaCustomization": {"customTypeNames": {
                "SkinCovering": {"enum": {"name": "CustomSkinCovering", "cases": {"HAIR": "CUSTOMHAIR"}}},
                "Crocodile": "CustomCrocodile", "Date": "CustomDate", "Episode": {"inputObject": {"name": "Film", "fields": {"x": "y"}}},
                "DogFilter": {"inputObject": {"name": "CustomDogFilter", "fields": {"size": "customSize"}}}}}}
            """#)
        let skin = try #require(files["Schema/Enums/CustomSkinCovering.graphql.swift"])
        #expect(skin.contains("public enum CustomSkinCovering: String, NormAPI.EnumType"))
        #expect(skin.contains(#"case CUSTOMHAIR = "HAIR""#) && skin.contains(#"case fur = "FUR""#))
        let filter = try #require(files["Schema/InputObjects/CustomDogFilter.graphql.swift"])
        #expect(filter.contains("public var customSize: Int?") && filter.contains(#""size": customSize?.jsonValue"#))
        #expect(files["Schema/CustomScalars/CustomDate.swift"]!.contains("public typealias CustomDate = String"))
        // An input object's renaming (it has fields) does not apply to an enum, as in Apollo iOS.
        #expect(files["Schema/Enums/Episode.graphql.swift"] != nil)
        let dogs = try #require(files["Operations/Queries/DogsQuery.graphql.swift"])
        #expect(dogs.contains("public let asCustomCrocodile: AsCustomCrocodile?"))
        #expect(dogs.contains(#"try data.typeCase(["Crocodile"])"#))
        #expect(dogs.contains("public var filter: AnimalAPI.CustomDogFilter?"))
        #expect(files["Fragments/DogFragment.graphql.swift"]!.contains("public let skin: GraphQLEnum<AnimalAPI.CustomSkinCovering>?"))
    }

    @Test func selectionSetInitializersAsConfigured() throws {
        let none = try files("")
        #expect(!none["Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("public init(hero:"))
        #expect(!none["Fragments/DogFragment.graphql.swift"]!.contains("public init(__typename:"))
        let some = try files(#""options": {"selectionSetInitializers": {"namedFragments": true, "definitionsNamed": ["HeroName"]}}"#)
        #expect(some["Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("public init(hero: Hero?)"))
        #expect(some["Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("public init(__typename: String = \"Character\", name: String)"))
        #expect(!some["Operations/Queries/DogsQuery.graphql.swift"]!.contains("public init(dogs:"))
        #expect(some["Fragments/DogFragment.graphql.swift"]!.contains("public init(__typename: String = \"Dog\""))
    }

    /// The identifier StarWarsAPI's HeroNameQuery has in Apollo iOS's checked-in code.
    @Test func operationIdentifiersAreApollos() throws {
        let files = try files(#""options": {"operationDocumentFormat": ["definition", "operationId"]}"#)
        #expect(files["Operations/Queries/HeroNameQuery.graphql.swift"]!.contains(
            #"public static let operationIdentifier: String? = "b9d49e889d6f5877c0bf09b8b4f88a71f88836a771e0e48c270a9aa8b506dda1""#))
        #expect(try !self.files("")["Operations/Queries/HeroNameQuery.graphql.swift"]!.contains("operationIdentifier"))
    }

    /// Identifiers in Apollo iOS's own generated StarWarsAPI (legacy safelisting on, type
    /// cases, aliases, conditions, fragments): the team's real-projects fixture, when it is there.
    @Test func operationIdentifiersOfApollosStarWarsAPI() throws {
        let fixture = ProjectDirectory.repository + "/../shared/fixtures/real-projects/StarWarsAPI"
        guard FileManager.default.fileExists(atPath: fixture) else { return }
        let files = try CodeGenerator(project: Project(directory: fixture), outputFolder: fixture).files()
        for (name, identifier) in [
            ("HeroDetailsInlineConditionalInclusion", "e251576f8c1cfcd442f44d2fbe5fd4b425a36ddd41fb4b6c1019c501ac6ac5bc"),
            ("HeroFriendsDetailsConditionalInclusion", "ca1b86ff4a0f8212bdac70fbb59c9bb8023d0a30ca0225b24831bb3e807b22a0"),
            ("HeroNameAndAppearsInWithFragment", "4ae734544e707769dbe7be2ff25cb2abd75d03634bda31a53ec7ae6e9e661fa5"),
            ("HeroTypeDependentAliasedField", "5b1ed6a84e96a4e48a3cad675ebb46020bce176f47361d097d8a0a824b7b8452"),
            ("TwoHeroes", "79c1cf70ead0fb9d7bb0811982560f1585b0b0a4ad7507c934b43a4482bb2097"),
        ] {
            let file = try #require(files.first { $0.path.hasSuffix("/\(name)Query.graphql.swift") })
            #expect(file.contents.contains(#"operationIdentifier: String? = "\#(identifier)""#), "\(name)")
        }
    }

    @Test func aPersistedQueryManifest() throws {
        let files = try files(#""operationManifest": {"path": "manifest.json", "generateManifestOnCodeGeneration": true}"#)
        let manifest = try #require(files["manifest.json"])
        #expect(manifest.contains(#""id": "b9d49e889d6f5877c0bf09b8b4f88a71f88836a771e0e48c270a9aa8b506dda1""#))
        #expect(manifest.contains(#""body": "query HeroName($episode: Episode) { hero(episode: $episode) { __typename name } }""#))
        #expect(manifest.contains(#""format": "apollo-persisted-query-manifest""#))
    }

    @Test func theCommandWritesIntoTheProjectWhenTheConfigurationSaysWhere() throws {
        let project = try ProjectDirectory([
            "apollo-codegen-config.json": #"{"schemaNamespace": "API", "input": {"schemaSearchPaths": ["*.graphqls"], "operationSearchPaths": ["*.graphql"]}, "output": {"schemaTypes": {"path": "Gen", "moduleType": {"other": {}}}, "operations": {"inSchemaModule": {}}}}"#,
            "schema.graphqls": ProjectDirectory.schema, "Trips.graphql": "query Trips { trips { id } }",
        ])
        // Another project's generated file elsewhere in the folder, and a stale one of this project's.
        let other = project.path + "/Other/Generated/ItemsQuery.graphql.swift", stale = project.path + "/Gen/Operations/Queries/GoneQuery.graphql.swift"
        for file in [other, stale] {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (CodeGenerator.generatedMarker + " from elsewhere\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        #expect(Codegen.run(project: project.path, output: nil) == 0)
        #expect(FileManager.default.fileExists(atPath: project.path + "/Gen/Operations/Queries/TripsQuery.graphql.swift"))
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test func withoutOutputTheCommandNeedsAFolder() throws {
        let project = try ProjectDirectory(["schema.graphqls": ProjectDirectory.schema, "Trips.graphql": "query Trips { trips { id } }"])
        #expect(Codegen.run(project: project.path, output: nil) == 2)
    }
}
