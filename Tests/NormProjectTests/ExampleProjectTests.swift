import NormCache
@testable import NormProject
import TestSupport
import Testing

/// examples/TripsApp, shaped like an iOS app's GraphQL project: Apollo iOS's codegen
/// configuration, the trips schema, an extension file with its cache policies, and
/// operations in feature folders sharing a fragment across files.
@Suite struct ExampleProjectTests {
    let project: Project

    init() throws { project = try Project(directory: ProjectDirectory.tripsApp) }

    @Test func theConfigurationNamesTheFiles() {
        #expect(project.schemaFiles == ["schema-extensions.graphqls", "schema.graphqls"])
        #expect(project.operationFiles == [
            "Features/EditTrip/TripMutations.graphql", "Features/Shared/TripHeader.graphql",
            "Features/TripDetail/TripDetail.graphql", "Features/TripList/TripList.graphql",
        ])
    }

    @Test func operationsAndFragmentsByNameWithTheirPlaces() throws {
        #expect(project.operations.map(\.name) == ["CreateTrip", "DeleteTrip", "RenameTrip", "TripDetail", "TripList"])
        #expect(project.fragments.map(\.name) == ["JourneyEndpointFields", "TripHeader"])
        let detail = try #require(project.operation(named: "TripDetail"))
        #expect(detail.kind == .query)
        #expect("\(detail.file):\(detail.line):\(detail.column)" == "Features/TripDetail/TripDetail.graphql:3:1")
        #expect(detail.fragmentNames == ["TripHeader", "JourneyEndpointFields"])
        let endpoint = try #require(project.fragments.first)
        #expect("\(endpoint.file):\(endpoint.line)" == "Features/TripDetail/TripDetail.graphql:27")
        #expect(project.operation(named: "RenameTrip")?.kind == .mutation)
        #expect(project.operation(named: "TripHeader") == nil)
    }

    @Test func anOperationsDocumentCarriesTheFragmentsItUsesFromOtherFiles() throws {
        let document = try project.document(forOperation: "TripDetail")
        #expect(document.hasPrefix("query TripDetail($id: ID!) {"))
        #expect(document.contains("fragment TripHeader on Trip {"))
        #expect(document.contains("fragment JourneyEndpointFields on JourneyEndpoint {"))
        #expect(try project.document(forOperation: "TripList") == """
            query TripList {
              trips {
                id
                name
              }
            }
            """)
        #expect(throws: ProjectError.self) { try project.document(forOperation: "TripDetails") }
    }

    @Test func theExtensionFileGivesTypeAndFieldPolicies() {
        let policies = project.schemaKnowledge.typePolicies
        #expect(policies.types == ["Airport", "Journey", "Reservation", "Station", "Trip", "User"])
        #expect(policies["Airport"] == .keyFields(["code"]))
        #expect(policies["Trip"] == .keyFields(["id"]))
        #expect(policies["Destination"] == nil)
        #expect(project.fieldPolicies["Query", "trip"] == ["id"])
        #expect(project.fieldPolicies.types == ["Query"])
        #expect(project.schemaKnowledge.possibleTypes.matches("Airport", condition: "JourneyEndpoint"))
    }

    /// The project's knowledge drives the cache: a TripDetail response written with it
    /// stores one record per airport, keyed by its code.
    @Test func theCacheKeysResponsesAsTheProjectSays() throws {
        let cache = NormalizedCache()
        let operation = try cache.operation(try project.document(forOperation: "TripDetail"))
        guard case .object(let data) = try JSON.parse("""
            {"trip": {"__typename": "Trip", "id": "3", "name": "Lisbon", "startsOn": null, "endsOn": null,
                      "destination": {"__typename": "Destination", "city": "Lisbon", "country": "PT"},
                      "owner": {"__typename": "User", "id": "1", "name": "Ana"},
                      "journeys": [{"__typename": "Journey", "id": "7",
                                    "from": {"__typename": "Airport", "code": "FRA", "name": "Frankfurt"},
                                    "to": {"__typename": "Airport", "code": "LIS", "name": "Lisbon"}}],
                      "reservations": []}}
            """) else { Issue.record("not an object"); return }
        try cache.write(data: data, for: operation, variables: ["id": "3"], schema: project.schemaKnowledge)
        #expect(cache.record("Airport:LIS")?["name"] == "Lisbon")
        #expect(cache.record("Trip:3")?["name"] == "Lisbon")
    }

    /// `@fieldPolicy(forField: "trip", keyArgs: "id")` at work: after the list, the detail
    /// view's read of `trip(id: "3")` finds `Trip:3` and names the fields the list did not
    /// fetch; a read of what the list fetched is whole.
    @Test func theFieldPolicyRedirectsTheDetailReadToTheListsTrip() throws {
        let cache = NormalizedCache()
        let tripList = try cache.operation(try project.document(forOperation: "TripList"))
        try cache.write(data: ["trips": [["__typename": "Trip", "id": "3", "name": "Lisbon"]]], for: tripList,
                        schema: project.schemaKnowledge)
        let tripDetail = try cache.operation(try project.document(forOperation: "TripDetail"))
        let detail = try cache.read(tripDetail, variables: ["id": "3"], schema: project.schemaKnowledge)
        #expect(detail.redirects.map(\.description) == ["QUERY_ROOT.trip(id:3) → Trip:3"])
        #expect(detail.missing == ["Trip:3.startsOn", "Trip:3.endsOn", "Trip:3.destination", "Trip:3.owner",
                                   "Trip:3.journeys", "Trip:3.reservations"])
        let header = try cache.read(try cache.operation("query Header($id: ID!) { trip(id: $id) { id name } }"),
                                    variables: ["id": "3"], schema: project.schemaKnowledge)
        #expect(header.complete)
        #expect(header.data?["trip"]?["name"] == "Lisbon")
    }

    @Test func aTypedOperationIsValidatedWithTheProjectsFragments() {
        #expect(project.validate(document: "query Mine { trip(id: 3) { ...TripHeader } }").isEmpty)
        #expect(project.validate(document: "{ trips { nmae } }").map(\.description)
                == [#"1:11: Cannot query field "nmae" on type "Trip". Did you mean "name"?"#])
        #expect(project.validate(document: "{ trips { id ...TripHeadr } }").map(\.description)
                == [#"1:17: Unknown fragment "TripHeadr"."#])
        #expect(project.validate(document: "{ trips { id }").map(\.description) == ["1:15: Syntax Error: Expected Name, found <EOF>"])
    }
}
