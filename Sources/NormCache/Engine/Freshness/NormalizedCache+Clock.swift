/// The cache's clock (``CacheClock``), which the workbench's `.clock` moves.
extension NormalizedCache {
    /// The time the cache goes by (``CacheClock``): a commit's time in the history and the
    /// journal is this clock's, and the workbench's `.clock` moves it.
    package var clock: CacheClock {
        get { locked { state.clock } }
        set { locked { state.clock = newValue } }
    }
}
