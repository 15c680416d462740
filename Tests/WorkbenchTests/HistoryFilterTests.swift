import Testing
@testable import Workbench

/// Which lines the REPL's history file keeps.
@Suite struct HistoryFilterTests {
    @Test func keepsOrdinaryLines() {
        for line in [".keys Trip:*", "trips.rename 2 \"Porto\"", "{ trips { id name } }", ".endpoint https://example.org/graphql"] {
            #expect(HistoryFilter.keeps(line), "\(line)")
        }
    }

    @Test func leavesOutBlankLines() {
        #expect(!HistoryFilter.keeps(""))
        #expect(!HistoryFilter.keeps("   "))
    }

    @Test func leavesOutHeaders() {
        #expect(!HistoryFilter.keeps(".header X-Trace: 1"))
        #expect(!HistoryFilter.keeps("  .header Authorization: Bearer abc"))
    }

    @Test func leavesOutLinesThatNameASecret() {
        for line in [
            #".vars {"authToken": "abc"}"#, #".vars {"Password": "hunter2"}"#, ".shell echo $SECRET",
            ".shell curl -H 'API-Key: 1'", #".vars {"apikey": "1"}"#, ".shell curl -H 'authorization: x'",
            ".shell curl -H 'Authorization: Bearer x'", ".shell curl -b 'cookie=1'",
        ] {
            #expect(!HistoryFilter.keeps(line), "\(line)")
        }
    }

    @Test func leavesOutURLsWithCredentials() {
        #expect(!HistoryFilter.keeps(".endpoint https://ana:pw@example.org/graphql"))
        #expect(HistoryFilter.keeps(".endpoint https://example.org/@ana"))
    }
}
