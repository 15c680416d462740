/// `.expect CLAIM`: checks an ``Expectation`` now and reports it.
extension Session {
    /// Checks `expectation` and reports it: silent when it holds (except in JSON mode),
    /// with the script's file and line, expected and actual when it does not.
    func check(_ expectation: Expectation, claim: String) throws(CommandError) {
        let failure: String?
        do { failure = try expectation.failure(in: self) } catch { failure = error.message }
        printer.emit(.expect(ok: failure == nil, message: failure.map { claim + ": " + $0 } ?? claim, at: location))
        if failure != nil { expectationFailed() }
    }
}
