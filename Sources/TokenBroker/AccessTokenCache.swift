import AlfredCore
import Foundation

/// Access tokens by connector, kept until shortly before they expire. Concurrent misses for one
/// connector share a single refresh: the first caller refreshes, the others wait for its result.
///
/// A forced refresh (a worker's token got a 401 from Google) drops the cached token, unless it was
/// minted within `forcedRefreshFloor`: then another caller has just replaced the token that failed,
/// and a burst of 401s costs Google one refresh, not one per caller.
actor AccessTokenCache {
    private struct Entry { let token: AccessToken; let storedAt: Date }
    private var tokens: [UUID: Entry] = [:]
    private var waiting: [UUID: [CheckedContinuation<AccessToken, any Error>]] = [:]
    /// Tokens are handed out only while they have at least this long to live.
    private let margin: TimeInterval
    private let forcedRefreshFloor: TimeInterval
    private let now: @Sendable () -> Date

    init(margin: Duration = .seconds(120), forcedRefreshFloor: Duration = .seconds(5),
         now: @escaping @Sendable () -> Date = Date.init) {
        self.margin = margin.seconds
        self.forcedRefreshFloor = forcedRefreshFloor.seconds
        self.now = now
    }

    func token(for connector: UUID, force: Bool = false,
               refresh: @Sendable () async throws -> AccessToken) async throws -> AccessToken {
        if force, let cached = tokens[connector], now().timeIntervalSince(cached.storedAt) >= forcedRefreshFloor {
            tokens[connector] = nil
        }
        if let cached = tokens[connector], cached.token.expiresAt.timeIntervalSince(now()) > margin { return cached.token }
        if waiting[connector] != nil {
            return try await withCheckedThrowingContinuation { waiting[connector]!.append($0) }
        }
        waiting[connector] = []
        let result: Result<AccessToken, any Error>
        do {
            result = .success(try await refresh())
        } catch {
            result = .failure(error)
        }
        if case .success(let token) = result { tokens[connector] = Entry(token: token, storedAt: now()) }
        for waiter in waiting.removeValue(forKey: connector) ?? [] { waiter.resume(with: result) }
        return try result.get()
    }

    func store(_ token: AccessToken, for connector: UUID) { tokens[connector] = Entry(token: token, storedAt: now()) }

    func forget(_ connector: UUID) { tokens[connector] = nil }
}
