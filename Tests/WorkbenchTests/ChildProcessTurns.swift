import Foundation
import TestSupport
import Testing

/// Lets only as many tests that run child processes run at once as there are cores:
/// `@Suite(.childProcesses)`. Such a test spends most of its time waiting on a thread of its
/// own (``onThread(_:)``), so without turns Swift Testing would start all of them together,
/// and dozens of debug `normcache` children on a 2-core machine would compete for it until
/// their own timeouts fired. A test waiting for its turn is suspended and holds no thread.
struct ChildProcessesTrait: SuiteTrait, TestTrait, TestScoping {
    private static let turns = Turns(ProcessInfo.processInfo.activeProcessorCount)

    /// The suite's tests take the turns, one for each test case; the suite itself takes none.
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await Self.turns.take()
        defer { Self.turns.give() }
        try await function()
    }
}

extension Trait where Self == ChildProcessesTrait {
    static var childProcesses: Self { Self() }
}
