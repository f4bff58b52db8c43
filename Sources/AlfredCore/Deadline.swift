/// Runs `body` against a deadline on `clock`: its result, or nil when the deadline came first (the
/// body is then cancelled and its late result dropped). Unlike a client library's own timeout, this
/// covers everything `body` awaits: headers, body, and any other I/O.
public func withDeadline<T: Sendable>(
    _ limit: Duration, clock: any Clock<Duration> = ContinuousClock(), _ body: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await clock.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}
