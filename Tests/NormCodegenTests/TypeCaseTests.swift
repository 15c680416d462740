import Foundation
@testable import NormCodegen
import NormProject
import TestSupport
import Testing

/// Type cases on types that only partly overlap: each is written where the document writes
/// it, as Apollo iOS writes it, with the fields of every selection that holds for all its
/// possible types; none nests its siblings (which once recursed without end). AnimalKingdom
/// (Apollo iOS's own test project) crashed codegen on four operations of these shapes.
@Suite struct TypeCaseTests {
    /// Interfaces A and B, some objects one of them, one both.
    static let overlapping = """
        type Query { things: [Thing!]! }
        union Thing = OnlyA | OnlyB | Both | Neither
        interface A { a: String! }
        interface B { b: String! }
        type OnlyA implements A { a: String! }
        type OnlyB implements B { b: String! }
        type Both implements A & B { a: String! b: String! }
        type Neither { n: Int }
        """

    /// AnimalKingdom's types, cut down: pets and warm-blooded animals overlap, and a union
    /// of some of each.
    static let animals = """
        type Query { allAnimals: [Animal!]! classroomPets: [ClassroomPet] }
        interface Animal { id: ID! species: String! predators: [Animal!]! height: Height! }
        interface Pet { id: ID! humanName: String }
        interface WarmBlooded implements Animal { id: ID! species: String! predators: [Animal!]! height: Height! bodyTemperature: Int! laysEggs: Boolean! }
        type Height { feet: Int! inches: Int meters: Int! relativeSize: String! centimeters: Float! }
        type Human implements Animal & WarmBlooded {
          id: ID! species: String! predators: [Animal!]! height: Height! bodyTemperature: Int! laysEggs: Boolean!
        }
        type Cat implements Animal & Pet & WarmBlooded {
          id: ID! species: String! predators: [Animal!]! height: Height! humanName: String bodyTemperature: Int! laysEggs: Boolean! isJellicle: Boolean!
        }
        type Bird implements Animal & Pet & WarmBlooded {
          id: ID! species: String! predators: [Animal!]! height: Height! humanName: String bodyTemperature: Int! laysEggs: Boolean! wingspan: Float!
        }
        type Rat implements Animal & Pet { id: ID! species: String! predators: [Animal!]! height: Height! humanName: String }
        type PetRock implements Pet { id: ID! humanName: String favoriteToy: String! }
        union ClassroomPet = Cat | Bird | Rat | PetRock
        """

    static let animalFragments = """
        fragment WarmBloodedDetails on WarmBlooded { bodyTemperature }
        fragment PetDetails on Pet { id humanName }
        """

    /// The generated file at `path` for a project of `schema` and `operations`, outlined.
    func outline(schema: String, operations: String, file path: String) throws -> Outline {
        let project = try ProjectDirectory(["schema.graphqls": schema, "Operations.graphql": operations])
        let files = try CodeGenerator(project: Project(directory: project.path)).files()
        return Outline(try #require(files.first { $0.path == path }).contents)
    }

    @Test func siblingTypeCasesOnPartlyOverlappingInterfacesStandSideBySide() throws {
        let found = try outline(schema: Self.overlapping, operations: "query Things { things { ... on A { a } ... on B { b } } }",
                                file: "Operations/Queries/ThingsQuery.graphql.swift")
        #expect(found.types == ["Data", "Data.Thing", "Data.Thing.AsA", "Data.Thing.AsB"])
        #expect(found["Data.Thing"] == ["__typename: String", "asA: AsA?", "asB: AsB?"])
        #expect(found["Data.Thing.AsA"] == ["__typename: String", "a: String"])
        #expect(found["Data.Thing.AsB"] == ["__typename: String", "b: String"])
        // Each type case is set for its own possible types: `Both` has the two.
        #expect(found.typeCases["Data.Thing"] == [#"asA: ["Both", "OnlyA"]"#, #"asB: ["Both", "OnlyB"]"#])
    }

    @Test func aTypeCaseWrittenInsideAPartlyOverlappingOneNestsForTheTypesOfBoth() throws {
        let found = try outline(schema: Self.overlapping, operations: "query Things { things { ... on A { a ... on B { b } } ... on B { b } } }",
                                file: "Operations/Queries/ThingsQuery.graphql.swift")
        #expect(found.types == ["Data", "Data.Thing", "Data.Thing.AsA", "Data.Thing.AsA.AsB", "Data.Thing.AsB"])
        #expect(found["Data.Thing.AsA.AsB"] == ["__typename: String", "a: String", "b: String"])
        // Inside `AsA`, only `Both` is also a B.
        #expect(found.typeCases["Data.Thing.AsA"] == [#"asB: ["Both"]"#])
        #expect(found["Data.Thing.AsB"] == ["__typename: String", "b: String"])
    }

    /// AnimalKingdom's ClassroomPetDetails: type cases on a union for interfaces that
    /// overlap one another and the union only in part.
    @Test func classroomPetDetails() throws {
        let found = try outline(schema: Self.animals, operations: """
            query ClassroomPets { classroomPets { ...ClassroomPetDetails } }
            fragment ClassroomPetDetails on ClassroomPet {
              ... on Animal { species }
              ... on Pet { humanName }
              ... on WarmBlooded { laysEggs }
              ... on Cat { isJellicle }
            }
            """, file: "Fragments/ClassroomPetDetails.graphql.swift")
        // Every classroom pet is a pet today, but a union is declared to be no interface:
        // `... on Pet` is the type case `asPet`, as Apollo iOS writes it.
        #expect(found.types == ["ClassroomPetDetails", "ClassroomPetDetails.AsAnimal", "ClassroomPetDetails.AsPet", "ClassroomPetDetails.AsWarmBlooded",
                                "ClassroomPetDetails.AsCat"])
        #expect(found["ClassroomPetDetails"] == ["__typename: String", "asAnimal: AsAnimal?", "asPet: AsPet?", "asWarmBlooded: AsWarmBlooded?", "asCat: AsCat?"])
        #expect(found.typeCases["ClassroomPetDetails"] == [#"asAnimal: ["Bird", "Cat", "Rat"]"#, #"asPet: ["Bird", "Cat", "PetRock", "Rat"]"#,
                                                           #"asWarmBlooded: ["Bird", "Cat"]"#, #"asCat: ["Cat"]"#])
        #expect(found["ClassroomPetDetails.AsAnimal"] == ["__typename: String", "species: String"])
        #expect(found["ClassroomPetDetails.AsPet"] == ["__typename: String", "humanName: String?"])
        // A warm-blooded animal is declared an animal: the animal's fields are its own.
        #expect(found["ClassroomPetDetails.AsWarmBlooded"] == ["__typename: String", "species: String", "laysEggs: Bool"])
        // A cat is declared all of them.
        #expect(found["ClassroomPetDetails.AsCat"] == ["__typename: String", "species: String", "humanName: String?", "laysEggs: Bool", "isJellicle: Bool"])
        #expect(found.typeCases["ClassroomPetDetails.AsAnimal"] == nil && found.typeCases["ClassroomPetDetails.AsWarmBlooded"] == nil)
    }

    /// GitHub's `issueOrPullRequest { ... on Reactable { ... } }`: every member of the union
    /// is reactable today, and the type case stays, so a member added later decodes with
    /// `asReactable` nil. A condition the type is declared to meet (an object's interface,
    /// a union it is in) is the selection's own.
    @Test func aTypeCaseEveryCurrentMemberMeetsIsKept() throws {
        let schema = """
            type Query { issueOrPullRequest: IssueOrPullRequest issue: Issue }
            interface Node { id: ID! }
            interface Reactable { viewerCanReact: Boolean! }
            type Issue implements Node & Reactable { id: ID! viewerCanReact: Boolean! title: String! }
            type PullRequest implements Node & Reactable { id: ID! viewerCanReact: Boolean! }
            union IssueOrPullRequest = Issue | PullRequest
            """
        let found = try outline(schema: schema, operations: """
            query Item {
              issueOrPullRequest { ... on Reactable { viewerCanReact } ... on Issue { title ... on IssueOrPullRequest { ... on Node { id } } } }
              issue { ... on Reactable { viewerCanReact } ... on IssueOrPullRequest { ... on Node { id } } }
            }
            """, file: "Operations/Queries/ItemQuery.graphql.swift")
        #expect(found["Data.IssueOrPullRequest"] == ["__typename: String", "asReactable: AsReactable?", "asIssue: AsIssue?"])
        #expect(found.typeCases["Data.IssueOrPullRequest"] == [#"asReactable: ["Issue", "PullRequest"]"#, #"asIssue: ["Issue"]"#])
        #expect(found["Data.IssueOrPullRequest.AsReactable"] == ["__typename: String", "viewerCanReact: Bool"])
        #expect(found["Data.IssueOrPullRequest.AsIssue"] == ["__typename: String", "viewerCanReact: Bool", "title: String", "id: ID"])
        #expect(found["Data.Issue"] == ["__typename: String", "viewerCanReact: Bool", "id: ID"])
        #expect(found.typeCases["Data.Issue"] == nil)
    }

    /// AnimalKingdom's AllAnimalsQuery: a fragment on WarmBlooded spread beside and inside
    /// `... on Pet`, a type case inside a union's, and a field's own type cases. The type
    /// cases are Apollo iOS's: `AsWarmBlooded`, `AsPet` with `AsWarmBlooded`, `AsCat`,
    /// `AsClassroomPet` with `AsBird`.
    @Test func allAnimals() throws {
        let found = try outline(schema: Self.animals, operations: """
            query AllAnimals {
              allAnimals {
                id
                ...WarmBloodedDetails
                ... on Pet { ...PetDetails ...WarmBloodedDetails }
                ... on Cat { isJellicle }
                ... on ClassroomPet { ... on Bird { wingspan } }
                predators { species ... on WarmBlooded { ...WarmBloodedDetails laysEggs } }
              }
            }
            """ + Self.animalFragments, file: "Operations/Queries/AllAnimalsQuery.graphql.swift")
        #expect(found.typeCases["Data.AllAnimal"] == [#"asWarmBlooded: ["Bird", "Cat", "Human"]"#, #"asPet: ["Bird", "Cat", "Rat"]"#,
                                                      #"asCat: ["Cat"]"#, #"asClassroomPet: ["Bird", "Cat", "Rat"]"#])
        // Neither of the overlapping pair nests the other, but where the document does.
        #expect(found.typeCases["Data.AllAnimal.AsWarmBlooded"] == nil)
        #expect(found.typeCases["Data.AllAnimal.AsPet"] == [#"asWarmBlooded: ["Bird", "Cat"]"#])
        #expect(found.typeCases["Data.AllAnimal.AsCat"] == nil)
        #expect(found.typeCases["Data.AllAnimal.AsClassroomPet"] == [#"asBird: ["Bird"]"#])
        #expect(found.typeCases["Data.AllAnimal.Predator"] == [#"asWarmBlooded: ["Bird", "Cat", "Human"]"#])
        // A cat is all of them: every fragment and field that holds for it.
        #expect(found["Data.AllAnimal.AsCat"] == ["__typename: String", "id: ID", "isJellicle: Bool", "predators: [Predator]", "fragments: Fragments",
                                                  "bodyTemperature: Int { fragments.warmBloodedDetails.bodyTemperature }",
                                                  "humanName: String? { fragments.petDetails.humanName }"])
        #expect(found["Data.AllAnimal.AsCat.Fragments"] == ["warmBloodedDetails: WarmBloodedDetails", "petDetails: PetDetails"])
        #expect(found["Data.AllAnimal.AsPet.AsWarmBlooded"] == ["__typename: String", "id: ID", "predators: [Predator]", "fragments: Fragments",
                                                                "bodyTemperature: Int { fragments.warmBloodedDetails.bodyTemperature }",
                                                                "humanName: String? { fragments.petDetails.humanName }"])
        // A type case on a union keeps the fields the selection names on the interface, but
        // not a pet's: a classroom pet is declared no pet (Apollo iOS's AsClassroomPet alike).
        #expect(found["Data.AllAnimal.AsClassroomPet"] == ["__typename: String", "id: ID", "predators: [Predator]", "asBird: AsBird?"])
        #expect(found["Data.AllAnimal.AsClassroomPet.AsBird"]?.contains("wingspan: Double") == true)
    }

    /// AnimalKingdom's AllAnimalsIncludeSkipQuery: the same overlap under @include and
    /// @skip, shaped as Apollo iOS's checked-in AllAnimalsIncludeSkipQuery is.
    @Test func allAnimalsIncludeSkip() throws {
        let found = try outline(schema: Self.animals, operations: """
            query AllAnimalsIncludeSkip($includeSpecies: Boolean!, $skipHeightInMeters: Boolean!, $getCat: Boolean!, $getWarmBlooded: Boolean!,
                                        $varA: Boolean!) {
              allAnimals {
                height { feet inches }
                ...HeightInMeters @skip(if: $skipHeightInMeters)
                ...WarmBloodedDetails @include(if: $getWarmBlooded)
                species @include(if: $includeSpecies)
                ... on Pet {
                  ...PetDetails
                  ...WarmBloodedDetails
                  ... on Animal { height { relativeSize @include(if: $varA) centimeters @include(if: $varA) } }
                }
                ... on Cat @include(if: $getCat) { isJellicle }
                predators {
                  species @include(if: $includeSpecies)
                  ... on WarmBlooded @include(if: $getWarmBlooded) { species ...WarmBloodedDetails laysEggs @include(if: $getWarmBlooded) }
                }
              }
            }
            fragment HeightInMeters on Animal { height { meters } }
            fragment WarmBloodedDetails on WarmBlooded { bodyTemperature ...HeightInMeters }
            fragment PetDetails on Pet { id humanName }
            """, file: "Operations/Queries/AllAnimalsIncludeSkipQuery.graphql.swift")
        // Apollo's AllAnimal: a field under its own condition is optional; a spread under a
        // condition whose type holds is the condition's type case and an optional
        // `fragments.heightInMeters`, its fields (`height.meters`) the type case's alone.
        #expect(found["Data.AllAnimal"] == ["__typename: String", "height: Height", "species: String?", "predators: [Predator]", "fragments: Fragments",
                                            "ifNotSkipHeightInMeters: IfNotSkipHeightInMeters?",
                                            "asWarmBloodedIfGetWarmBlooded: AsWarmBloodedIfGetWarmBlooded?", "asPet: AsPet?", "asCatIfGetCat: AsCatIfGetCat?"])
        #expect(found["Data.AllAnimal.Fragments"] == ["heightInMeters: HeightInMeters?"])
        #expect(found["Data.AllAnimal.Height"] == ["__typename: String", "feet: Int", "inches: Int?"])
        // Type cases under a condition are set as the operation's variables say.
        #expect(found.typeCases["Data.AllAnimal"] == [#"ifNotSkipHeightInMeters: if: ["!skipHeightInMeters"]"#,
                                                      #"asWarmBloodedIfGetWarmBlooded: ["Bird", "Cat", "Human"], if: ["getWarmBlooded"]"#,
                                                      #"asPet: ["Bird", "Cat", "Rat"]"#, #"asCatIfGetCat: ["Cat"], if: ["getCat"]"#])
        #expect(found["Data.AllAnimal.IfNotSkipHeightInMeters"] == ["__typename: String", "height: Height", "species: String?", "predators: [Predator]",
                                                                    "fragments: Fragments"])
        #expect(found["Data.AllAnimal.IfNotSkipHeightInMeters.Fragments"] == ["heightInMeters: HeightInMeters"])
        #expect(found["Data.AllAnimal.IfNotSkipHeightInMeters.Height"] == ["__typename: String", "feet: Int", "inches: Int?", "meters: Int"])
        #expect(found.typeCases["Data.AllAnimal.AsWarmBloodedIfGetWarmBlooded"] == nil)
        // HeightInMeters is also spread inside WarmBloodedDetails, with no condition: there
        // it is always there, as in Apollo's.
        #expect(found["Data.AllAnimal.AsWarmBloodedIfGetWarmBlooded.Fragments"] == ["heightInMeters: HeightInMeters", "warmBloodedDetails: WarmBloodedDetails"])
        #expect(found["Data.AllAnimal.AsPet.AsWarmBlooded.Fragments"]?.first == "heightInMeters: HeightInMeters")
        #expect(found["Data.AllAnimal.AsCatIfGetCat.Fragments"]?.first == "heightInMeters: HeightInMeters")
        #expect(found.typeCases["Data.AllAnimal.AsPet"] == [#"asWarmBlooded: ["Bird", "Cat"]"#])
        // Inside its condition the fragment is there: under `fragments`, its fields not optional.
        #expect(found["Data.AllAnimal.AsWarmBloodedIfGetWarmBlooded"] == ["__typename: String", "height: Height", "species: String?", "predators: [Predator]",
                                                                          "fragments: Fragments",
                                                                          "bodyTemperature: Int { fragments.warmBloodedDetails.bodyTemperature }"])
        // A type case keeps the parent's optional fragment (WarmBloodedDetails is its
        // `asWarmBlooded`'s); `... on Pet`'s fields under $varA are optional in its `height`.
        #expect(found["Data.AllAnimal.AsPet.Fragments"] == ["heightInMeters: HeightInMeters?", "petDetails: PetDetails"])
        #expect(found["Data.AllAnimal.AsPet.Height"] == ["__typename: String", "feet: Int", "inches: Int?", "relativeSize: String?", "centimeters: Double?"])
        // In a cat WarmBloodedDetails is also spread inside `... on Pet`, with no condition: always there.
        #expect(found["Data.AllAnimal.AsCatIfGetCat"]?.contains("isJellicle: Bool") == true)
        #expect(found["Data.AllAnimal.AsCatIfGetCat"]?.contains("bodyTemperature: Int { fragments.warmBloodedDetails.bodyTemperature }") == true)
        #expect(found["Data.AllAnimal.Predator"] == ["__typename: String", "species: String?", "asWarmBloodedIfGetWarmBlooded: AsWarmBloodedIfGetWarmBlooded?"])
        #expect(found["Data.AllAnimal.Predator.AsWarmBloodedIfGetWarmBlooded"] == ["__typename: String", "species: String", "laysEggs: Bool", "fragments: Fragments",
                                                                                   "bodyTemperature: Int { fragments.warmBloodedDetails.bodyTemperature }",
                                                                                   "height: HeightInMeters.Height { fragments.warmBloodedDetails.height }"])
    }

    /// A condition alone is the type case `ifX` (`ifNotX` for `@skip`), two of them `IfAAndNotB`,
    /// with the fields under it its own alone; a field under its own condition is optional
    /// where the condition is not the scope's; literal conditions are decided here.
    @Test func conditionsAloneAreTypeCasesNamedAfterThem() throws {
        let found = try outline(schema: Self.animals, operations: """
            query Pets($details: Boolean!, $brief: Boolean!) {
              allAnimals {
                id
                species @include(if: $details)
                ... @include(if: $details) { species predators { id } }
                ... on Animal @skip(if: $brief) { id }
                ...PetDetails @include(if: $details) @skip(if: $brief)
                height @include(if: false) { feet }
                ... @skip(if: true) { predators { species } }
                ... on Animal @include(if: true) @skip(if: false) { id }
              }
            }
            """ + Self.animalFragments, file: "Operations/Queries/PetsQuery.graphql.swift")
        // `predators` is `ifDetails`'s alone; `height` and the literal-true case never were.
        #expect(found["Data.AllAnimal"] == ["__typename: String", "id: ID", "species: String?",
                                            "ifDetails: IfDetails?", "ifNotBrief: IfNotBrief?", "asPetIfDetailsAndNotBrief: AsPetIfDetailsAndNotBrief?"])
        // `ifNotBrief` brings in nothing its parent lacks: the variables decide it, not the data.
        #expect(found.typeCases["Data.AllAnimal"] == [#"ifDetails: if: ["details"]"#, #"ifNotBrief: if: ["!brief"]"#,
                                                      #"asPetIfDetailsAndNotBrief: ["Bird", "Cat", "Rat"], if: ["details", "!brief"]"#])
        #expect(found["Data.AllAnimal.IfDetails"] == ["__typename: String", "id: ID", "species: String", "predators: [Predator]"])
        #expect(found["Data.AllAnimal.AsPetIfDetailsAndNotBrief"]?.contains("humanName: String? { fragments.petDetails.humanName }") == true)
    }

    /// AnimalKingdom's AllAnimalsDeferQuery: deferred inline fragments are parts named after
    /// their labels, under the `fragments` of the type case they narrow to, as Apollo iOS's
    /// checked-in AllAnimalsDeferQuery has them; a deferred spread is an optional fragment.
    @Test func allAnimalsDefer() throws {
        let found = try outline(schema: Self.animals + "\ndirective @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT",
                                operations: """
            query AllAnimalsDefer {
              allAnimals {
                id
                ...WarmBloodedDetails
                ... on Pet { ...PetDetails ...WarmBloodedDetails ... on Animal @defer(label: "deferredPetAnimal") { species } }
                ... on Cat @defer(label: "deferredCat") { isJellicle }
                predators { id ...PetDetails @defer }
              }
            }
            """ + Self.animalFragments, file: "Operations/Queries/AllAnimalsDeferQuery.graphql.swift")
        #expect(found.typeCases["Data.AllAnimal"] == [#"asWarmBlooded: ["Bird", "Cat", "Human"]"#, #"asPet: ["Bird", "Cat", "Rat"]"#, #"asCat: ["Cat"]"#])
        #expect(found.typeCases["Data.AllAnimal.AsWarmBlooded"] == nil)
        #expect(found.typeCases["Data.AllAnimal.AsPet"] == [#"asWarmBlooded: ["Bird", "Cat"]"#])
        // `... on Animal` inside `... on Pet` holds for the pet: its deferred part is the pet's.
        #expect(found["Data.AllAnimal.AsPet"]?.contains("species: String") == false)
        #expect(found["Data.AllAnimal.AsPet.Fragments"]?.last == "@Deferred deferredPetAnimal: DeferredPetAnimal?")
        #expect(found["Data.AllAnimal.AsPet.DeferredPetAnimal"]?.contains("species: String") == true)
        // `... on Cat @defer` is the type case `asCat`, its fields in the part `DeferredCat`.
        #expect(found["Data.AllAnimal.AsCat"]?.contains("isJellicle: Bool") == false)
        #expect(found["Data.AllAnimal.AsCat.Fragments"] == ["warmBloodedDetails: WarmBloodedDetails", "petDetails: PetDetails", "@Deferred deferredCat: DeferredCat?"])
        #expect(found["Data.AllAnimal.AsCat.DeferredCat"]?.contains("isJellicle: Bool") == true)
        #expect(found["Data.AllAnimal.AsCat.DeferredCat"]?.contains("id: ID") == true)
        // A deferred spread: the fragment optional, its fields not merged, under the type case
        // its type narrows to.
        #expect(found["Data.AllAnimal.Predator"] == ["__typename: String", "id: ID", "asPet: AsPet?"])
        #expect(found["Data.AllAnimal.Predator.AsPet"] == ["__typename: String", "id: ID", "fragments: Fragments"])
        #expect(found["Data.AllAnimal.Predator.AsPet.Fragments"] == ["@Deferred petDetails: PetDetails?"])
        // What is not deferred stays as it is.
        #expect(found["Data.AllAnimal"]?.contains("id: ID") == true)
    }

    /// Apollo iOS's codegen refuses a deferred inline fragment without a label, which names
    /// its type; a label that cannot name one is refused too.
    @Test func aDeferredInlineFragmentNeedsALabelThatMakesAName() throws {
        let project = try ProjectDirectory(["schema.graphqls": Self.animals + "\ndirective @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT",
                                            "Operations.graphql": """
                                                query Unlabeled {
                                                  allAnimals { id ... @defer { species } ... on Cat @defer(label: "is-jellicle") { isJellicle } }
                                                }
                                                """])
        #expect(throws: ProjectError([.init(file: "Operations.graphql", line: 2, column: 19, message: "a deferred inline fragment needs a label "
                                            + "(@defer(label: \"…\")): its type is named after it, and Apollo iOS refuses it too"),
                                      .init(file: "Operations.graphql", line: 2, column: 42,
                                            message: "deferred label \"is-jellicle\" cannot name a Swift type and property; rename it")])) {
            try CodeGenerator(project: Project(directory: project.path)).files()
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefusedAtItsPlace() throws {
        let limit = SelectionSetWriter.nestingLimit
        let schema = "type Query { node: Node } type Node { id: ID! next: Node }"
        func project(nesting count: Int) throws -> Project {
            let fields = String(repeating: "next { ", count: count) + "id" + String(repeating: " }", count: count)
            return try Project(directory: ProjectDirectory(["schema.graphqls": schema, "Deep.graphql": "query Deep {\n  node { \(fields) }\n}"]).path)
        }
        // `node` is one deep, the last `next` one more than the limit: the refusal names it.
        #expect(throws: ProjectError([.init(file: "Deep.graphql", line: 2, column: 10 + 7 * (limit - 1),
                                            message: "Next is nested \(limit + 1) selection sets deep, more than codegen's limit of \(limit)")])) {
            try CodeGenerator(project: project(nesting: limit)).files()
        }
        // The operation, the namespace, the schema metadata, and the object types Query and Node.
        #expect(try CodeGenerator(project: project(nesting: limit - 1)).files().count == 5)
    }
}

/// A generated file's selection set types, by path from an operation's `Data` or a
/// fragment's type (`Data.Thing.AsA`), each with its properties as `name: Type` (a
/// computed one with its body), and the possible types of each type case it decodes.
struct Outline {
    private(set) var types: [String] = []
    private(set) var properties: [String: [String]] = [:]
    private(set) var typeCases: [String: [String]] = [:]

    init(_ swift: String) {
        // The structs the line is in, each with its indent; an operation's own is no selection set.
        var path: [(name: String?, indent: Int)] = []
        for line in swift.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            let text = line.dropFirst(indent)
            while let last = path.last, last.indent >= indent { path.removeLast() }
            let owner = path.compactMap(\.name).joined(separator: ".")
            if text.hasPrefix("public struct "), let name = text.dropFirst("public struct ".count).split(separator: ":").first {
                let isOperation = text.contains(": NormAPI.GraphQL")
                path.append((isOperation ? nil : String(name), indent))
                if !isOperation { types.append(path.compactMap(\.name).joined(separator: ".")) }
            } else if text.hasPrefix("public let ") {
                properties[owner, default: []].append(String(text.dropFirst("public let ".count)))
            } else if text.hasPrefix("public var "), !text.hasPrefix("public var jsonValue") {
                properties[owner, default: []].append(String(text.dropFirst("public var ".count)))
            } else if text.hasPrefix("@Deferred public var ") {
                properties[owner, default: []].append("@Deferred " + text.dropFirst("@Deferred public var ".count))
            } else if text.hasPrefix("self.as") || text.hasPrefix("self.if"),
                      let range = text.range(of: " = try data.typeCase(") ?? text.range(of: " = try data.included(") {
                let property = text.dropFirst("self.".count).prefix { $0 != " " }
                typeCases[owner, default: []].append("\(property): " + text[range.upperBound...].dropLast())
            }
        }
    }

    subscript(type: String) -> [String]? { properties[type] }
}
