extension Result where Failure == any Error {
    /// The outcome of async work as a value, for handing across a callback or a semaphore.
    ///
    /// ```swift
    /// let outcome = await Result { try await client.fetch(tripList, from: trips) }
    /// ```
    public init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
