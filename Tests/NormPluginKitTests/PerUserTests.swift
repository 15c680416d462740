import NormPluginKit
import Testing

/// A server's per-user data follows login and logout.
@Suite struct PerUserTests {
    @Test func eachUserHasTheirOwnDataAndLogoutDropsIt() {
        var lists = PerUser { user in [user] }
        #expect(lists.current { $0 } == ["default"])
        lists.follow(.login(user: "ana"))
        lists.current { $0.append("note") }
        #expect(lists.user == "ana" && lists.current { $0 } == ["ana", "note"])
        lists.follow(.login(user: "bo"))
        #expect(lists.current { $0 } == ["bo"])
        lists.follow(.login(user: "ana"))
        #expect(lists.current { $0 } == ["ana", "note"], "switching back keeps ana's data")
        lists.follow(.foreground)
        #expect(lists.user == "ana")
        lists.follow(.logout)
        #expect(lists.user == "default")
        lists.follow(.login(user: "ana"))
        #expect(lists.current { $0 } == ["ana"], "logout dropped ana's data: it is made afresh")
    }
}
